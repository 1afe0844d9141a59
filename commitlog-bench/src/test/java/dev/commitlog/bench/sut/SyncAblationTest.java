package dev.commitlog.bench.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.SyncTuning;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.DiskAccessMode;
import dev.commitlog.config.SyncMode;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Each column switches off exactly its one mechanism, per log, and nothing else. */
class SyncAblationTest {
    private static final SyncTuning ENGINE = SyncTuning.defaults();

    @Test
    void eachColumnChangesOnlyItsMechanism() {
        assertEquals(ENGINE.withInlineFlushRecords(SyncTuning.NEVER_INLINE), SyncAblation.BATCH_CLASSIC.tuning());
        assertEquals(ENGINE.withYieldBeforePark(false), SyncAblation.BATCH_PARK.tuning());
        assertEquals(ENGINE.withInlineFlushRecords(SyncTuning.ALWAYS_INLINE), SyncAblation.BATCH_INLINE.tuning());
        assertEquals(ENGINE.withInlineFlushRecords(SyncTuning.ALWAYS_INLINE), SyncAblation.ADAPTIVE_INLINE.tuning());
        assertEquals(ENGINE.withGather(false), SyncAblation.ADAPTIVE_NO_GATHER.tuning());
        assertEquals(ENGINE, SyncAblation.BATCH_EVERY_MARK.tuning(), "a configuration change, not a tuning");
        assertTrue(!SyncAblation.BATCH_CLASSIC.tuning().leaderFollower());
    }

    @Test
    void labelsAndModes() {
        assertEquals("batch-classic", new CommitLogContender(SyncAblation.BATCH_CLASSIC).label());
        assertEquals("adaptive-nogather", new CommitLogContender(SyncAblation.ADAPTIVE_NO_GATHER).label());
        assertEquals(SyncMode.ADAPTIVE, SyncAblation.ADAPTIVE_INLINE.mode());
        assertTrue(new CommitLogContender(SyncAblation.BATCH_PARK).ablation());
    }

    @Test
    void theMarkColumnChangesOnlyTheMarkIntervalInItsConfig() {
        Path dir = Path.of("/var/lib/commitlog");
        CommitLogConfig config = new CommitLogContender(SyncAblation.BATCH_EVERY_MARK).config(dir);
        assertEquals(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).durableMarkInterval(Duration.ZERO).build(), config);
        assertEquals(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).build(),
                new CommitLogContender(SyncAblation.BATCH_CLASSIC).config(dir), "a tuning column keeps the default config");
        assertEquals("batch-mark-every-flush: commitlog batch with commitlog_durable_mark_interval: 0ms",
                new CommitLogContender(SyncAblation.BATCH_EVERY_MARK).settings());
    }

    @Test
    void theDirectColumnsChangeOnlyTheAccessModeInTheirConfig() {
        Path dir = Path.of("/var/lib/commitlog");
        assertEquals(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).diskAccessMode(DiskAccessMode.DIRECT).build(),
                new CommitLogContender(SyncAblation.BATCH_DIRECT).config(dir));
        assertEquals(CommitLogConfig.builder(dir).syncMode(SyncMode.ADAPTIVE).diskAccessMode(DiskAccessMode.DIRECT).build(),
                new CommitLogContender(SyncAblation.ADAPTIVE_DIRECT).config(dir));
        assertEquals(ENGINE, SyncAblation.ADAPTIVE_DIRECT.tuning());
    }
}
