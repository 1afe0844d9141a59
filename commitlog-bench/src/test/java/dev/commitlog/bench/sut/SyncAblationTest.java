package dev.commitlog.bench.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
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
    private static final String MARK_INTERVAL = "dev.commitlog.sync.durableMarkIntervalMicros";

    @AfterEach
    void clear() {
        System.clearProperty(INLINE);
        System.clearProperty(CASCADE);
        System.clearProperty(GATHER);
        System.clearProperty(PIPELINE);
        System.clearProperty(OVERLAP_GATE);
        System.clearProperty(MARK_INTERVAL);
    }

    @Test
    void eachVariantSetsOnlyItsSwitchesDuringOpen() throws IOException {
        assertEquals(Map.of(INLINE, "false", CASCADE, "false"), seenDuringOpen(SyncAblation.BATCH_CLASSIC));
        assertEquals(Map.of(CASCADE, "true"), seenDuringOpen(SyncAblation.BATCH_CASCADE));
        assertEquals(Map.of(GATHER, "true"), seenDuringOpen(SyncAblation.ADAPTIVE_GATHER));
        assertEquals(Map.of(PIPELINE, "1"), seenDuringOpen(SyncAblation.ADAPTIVE_SOLO));
        assertEquals(Map.of(PIPELINE, "4", OVERLAP_GATE, "false"), seenDuringOpen(SyncAblation.ADAPTIVE_UNGATED));
        assertEquals(Map.of(MARK_INTERVAL, "0"), seenDuringOpen(SyncAblation.BATCH_EVERY_MARK));
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
        assertEquals("adaptive-gather", new CommitLogContender(SyncAblation.ADAPTIVE_GATHER).label());
        assertEquals(true, new CommitLogContender(SyncAblation.BATCH_CASCADE).ablation());
        assertEquals("dev.commitlog.sync.inlineFlush=false dev.commitlog.sync.cascadeWakeups=false",
                SyncAblation.BATCH_CLASSIC.properties());
    }

    private static Map<String, String> seenDuringOpen(SyncAblation ablation) throws IOException {
        return ablation.open(() -> {
            Map<String, String> seen = new HashMap<>();
            for (String p : new String[] {INLINE, CASCADE, GATHER, PIPELINE, OVERLAP_GATE, MARK_INTERVAL}) {
                if (System.getProperty(p) != null) {
                    seen.put(p, System.getProperty(p));
                }
            }
            return seen;
        });
    }
}
