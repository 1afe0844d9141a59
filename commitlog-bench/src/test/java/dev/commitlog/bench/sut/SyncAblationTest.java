package dev.commitlog.bench.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The switches are set exactly while the log opens, and put back as they were, even on failure. */
class SyncAblationTest {
    private static final String INLINE = "dev.commitlog.sync.inlineFlush";
    private static final String CASCADE = "dev.commitlog.sync.cascadeWakeups";
    private static final String GATHER = "dev.commitlog.sync.adaptiveGather";
    private static final String PIPELINE = "dev.commitlog.sync.adaptivePipeline";
    private static final String OVERLAP_GATE = "dev.commitlog.sync.adaptiveOverlapGate";

    @AfterEach
    void clear() {
        System.clearProperty(INLINE);
        System.clearProperty(CASCADE);
        System.clearProperty(GATHER);
        System.clearProperty(PIPELINE);
        System.clearProperty(OVERLAP_GATE);
    }

    @Test
    void eachVariantSetsOnlyItsSwitchesDuringOpen() throws IOException {
        assertEquals(Map.of(INLINE, "false", CASCADE, "false"), seenDuringOpen(SyncAblation.BATCH_CLASSIC));
        assertEquals(Map.of(CASCADE, "true"), seenDuringOpen(SyncAblation.BATCH_CASCADE));
        assertEquals(Map.of(GATHER, "false"), seenDuringOpen(SyncAblation.ADAPTIVE_NO_GATHER));
        assertEquals(Map.of(PIPELINE, "1"), seenDuringOpen(SyncAblation.ADAPTIVE_SOLO));
        assertEquals(Map.of(PIPELINE, "4", OVERLAP_GATE, "false"), seenDuringOpen(SyncAblation.ADAPTIVE_UNGATED));
        assertEquals(Map.of(), seenDuringOpen(SyncAblation.BATCH_EVERY_MARK), "a configuration change, not a switch");
        assertNull(System.getProperty(INLINE));
        assertNull(System.getProperty(CASCADE));
        assertNull(System.getProperty(GATHER));
    }

    @Test
    void previousValuesComeBackEvenWhenOpenFails() {
        System.setProperty(CASCADE, "true");
        assertThrows(IOException.class, () -> SyncAblation.BATCH_CLASSIC.open(() -> {
            throw new IOException("disk full");
        }));
        assertEquals("true", System.getProperty(CASCADE));
        assertNull(System.getProperty(INLINE));
    }

    @Test
    void labelsAndModes() {
        assertEquals("batch-classic", new CommitLogContender(SyncAblation.BATCH_CLASSIC).label());
        assertEquals("adaptive-nogather", new CommitLogContender(SyncAblation.ADAPTIVE_NO_GATHER).label());
        assertEquals(true, new CommitLogContender(SyncAblation.BATCH_CASCADE).ablation());
        assertEquals("dev.commitlog.sync.inlineFlush=false dev.commitlog.sync.cascadeWakeups=false",
                SyncAblation.BATCH_CLASSIC.properties());
    }

    @Test
    void theMarkColumnChangesOnlyTheMarkIntervalInItsConfig() {
        Path dir = Path.of("/var/lib/commitlog");
        CommitLogConfig config = new CommitLogContender(SyncAblation.BATCH_EVERY_MARK).config(dir);
        assertEquals(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).durableMarkInterval(Duration.ZERO).build(), config);
        assertEquals(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).build(),
                new CommitLogContender(SyncAblation.BATCH_CLASSIC).config(dir), "a switch column keeps the default config");
        assertEquals("batch-mark-every-flush: commitlog batch with commitlog_durable_mark_interval: 0ms",
                new CommitLogContender(SyncAblation.BATCH_EVERY_MARK).settings());
        assertEquals(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).durableMarkInterval(Duration.ofMillis(1)).build(),
                new CommitLogContender(SyncAblation.BATCH_MARK_1MS).config(dir));
    }

    private static Map<String, String> seenDuringOpen(SyncAblation ablation) throws IOException {
        return ablation.open(() -> {
            Map<String, String> seen = new HashMap<>();
            for (String p : new String[] {INLINE, CASCADE, GATHER, PIPELINE, OVERLAP_GATE}) {
                if (System.getProperty(p) != null) {
                    seen.put(p, System.getProperty(p));
                }
            }
            return seen;
        });
    }
}
