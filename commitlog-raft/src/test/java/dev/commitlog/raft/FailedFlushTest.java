package dev.commitlog.raft;

import static dev.commitlog.raft.CommitLogLogStorageTest.mockEntries;
import static dev.commitlog.raft.CommitLogLogStorageTest.mockEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SimulatedDisk;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed flush reaches JRaft the way its own RocksDB storage reports a failed write: a short
 * count from {@code appendEntries}, false from the truncations and reset, and nothing of the
 * failed call in the index. JRaft then reports EIO and the node stops serving; an exception
 * thrown into JRaft's log-manager disruptor instead would leave the batch's closures waiting.
 */
class FailedFlushTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void aFailedFlushIsAShortCountOrFalseAndIndexesNothing(SyncMode mode) throws Exception {
        SimulatedDisk disk = new SimulatedDisk();
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(mode).build();
        try (CommitLog log = CommitLog.open(config, CommitLogOptions.builder().storage(disk).build())) {
            RaftCommitLog shared = RaftCommitLog.over(log);
            CommitLogLogStorage storage = shared.storage("group-a", new RaftOptions());
            assertTrue(storage.init(RaftPowerLossScenario.storageOptions()));
            assertEquals(10, storage.appendEntries(mockEntries(10)));

            disk.failNextFlush("injected: fdatasync returned EIO");
            assertEquals(0, storage.appendEntries(List.of(mockEntry(10, 10), mockEntry(11, 10))));
            assertEquals(9, storage.getLastLogIndex());
            assertNull(storage.getEntry(10));

            // The log has failed: nothing more is made durable, and nothing more is indexed.
            assertFalse(storage.truncateSuffix(5));
            assertFalse(storage.truncatePrefix(3));
            assertFalse(storage.reset(20));
            assertEquals(0, storage.getFirstLogIndex());
            assertEquals(9, storage.getLastLogIndex());
            assertEquals(9, storage.getEntry(9).getId().getIndex()); // durable entries still read
            shared.close();
        }
    }
}
