package dev.commitlog.raft;

import static dev.commitlog.raft.CommitLogLogStorageTest.mockEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.CommitLog;
import dev.commitlog.PositionDiscardedException;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Index checkpoints keep what {@code drop} and a rewrite change: a group dropped while a
 * checkpoint is taken does not come back from it, and a rewritten group loads at its new
 * positions, whether the checkpoint was taken after the rewrite or before it (the copies then lie
 * after the checkpoint and are replayed), with the old segments gone.
 */
class IndexCheckpointDropRewriteTest {
    private static final int SEGMENT = 64 * 1024;
    private static final int DATA = 1024;

    @TempDir
    Path dir;

    private CommitLogConfig config() {
        return CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(SEGMENT).build();
    }

    /** The log's own checkpoint files, written only when the test asks (and at close). */
    private static RaftCommitLog over(CommitLog log) {
        return RaftCommitLog.over(log, RaftCommitLog.directoryFiles(log));
    }

    /** What a replay of the whole log loads (no checkpoint read, none written). */
    private GroupStates replayed() throws IOException {
        try (CommitLog log = CommitLog.open(config())) {
            RaftCommitLog shared = RaftCommitLog.over(log, new NoCheckpointFiles());
            GroupStates states = GroupStates.of(shared);
            shared.close();
            return states;
        }
    }

    /** A stop as after a kill: the log closed first, so close() writes no checkpoint. */
    private static void stopWithoutCheckpoint(CommitLog log, RaftCommitLog shared) {
        log.close();
        shared.close();
    }

    private static boolean discarded(CommitLog log, long position) throws IOException {
        try {
            log.tailer(position).close();
            return false;
        } catch (PositionDiscardedException e) {
            return true;
        }
    }

    @Test
    void aGroupDroppedBetweenTheListingAndItsTakeIsLeftOut() throws IOException {
        GroupStates live;
        String file;
        try (CommitLog log = CommitLog.open(config())) {
            RaftCommitLog shared = over(log);
            for (String key : List.of("kept", "dropped")) {
                CommitLogLogStorage storage = CheckpointDriver.init(shared, key);
                for (int i = 1; i <= 20; i++) {
                    assertTrue(storage.appendEntry(mockEntry(i, 1, DATA)));
                }
                storage.shutdown();
            }
            // The writer's first steps, then the drop, as a drop racing the daemon thread's checkpoint does.
            log.sync();
            long start = log.durablePosition();
            List<GroupState> listed = shared.groups().groups();
            int nextId = shared.groups().nextId();
            shared.drop("dropped");
            IndexCheckpointWriter.Written written = new IndexCheckpointWriter(log, RaftCommitLog.directoryFiles(log)).write(start,
                    listed, nextId);
            assertNotNull(written);
            file = written.name();
            live = GroupStates.of(shared);
            assertFalse(live.byKey().containsKey("dropped"));
            stopWithoutCheckpoint(log, shared);
        }
        try (CommitLog log = CommitLog.open(config())) {
            RaftCommitLog shared = over(log);
            GroupStates loaded = GroupStates.of(shared);
            assertEquals(file, shared.checkpoints().loadResult().loaded().file(), "loaded from the checkpoint written");
            assertNull(shared.groups().find("dropped"), "the dropped group came back from the checkpoint");
            live.assertSameAs(loaded, "loaded from the checkpoint, against the live state");
            stopWithoutCheckpoint(log, shared);
        }
        replayed().assertSameAs(live, "a whole replay, against the live state");
    }

    @Test
    void aCheckpointAfterARewriteHoldsTheNewPositions() throws IOException {
        rewriteAround(false);
    }

    @Test
    void aCheckpointBeforeARewriteLoadsTheCopiesAfterIt() throws IOException {
        rewriteAround(true);
    }

    /**
     * Group "lagging" holds the first segments, "busy" fills more and cuts its prefix; then
     * "lagging" is rewritten forward and the old segments discarded, with a checkpoint taken just
     * before the rewrite or just after the discard; the log stops as after a kill and reopens from
     * that checkpoint.
     */
    private void rewriteAround(boolean checkpointBefore) throws IOException {
        GroupStates live;
        long oldLowest;
        try (CommitLog log = CommitLog.open(config())) {
            RaftCommitLog shared = over(log);
            CommitLogLogStorage lagging = CheckpointDriver.init(shared, "lagging");
            CommitLogLogStorage busy = CheckpointDriver.init(shared, "busy");
            for (int i = 1; i <= 30; i++) {
                assertTrue(lagging.appendEntry(mockEntry(i, 1, DATA)));
                assertTrue(busy.appendEntry(mockEntry(i, 1, DATA)));
            }
            for (int i = 31; i <= 200; i++) {
                assertTrue(busy.appendEntry(mockEntry(i, 1, DATA)));
            }
            assertTrue(busy.truncatePrefix(195));
            if (checkpointBefore) {
                assertTrue(shared.checkpoint());
            }
            GroupState state = shared.groups().find("lagging");
            oldLowest = state.index().lowestPosition();
            assertTrue(shared.rewrite().rewrite(state, Long.MAX_VALUE) > 0);
            shared.compact();
            assertTrue(discarded(log, oldLowest), "the old segments of lagging went");
            if (!checkpointBefore) {
                assertTrue(shared.checkpoint());
            }
            live = GroupStates.of(shared);
            lagging.shutdown();
            busy.shutdown();
            stopWithoutCheckpoint(log, shared);
        }
        try (CommitLog log = CommitLog.open(config())) {
            RaftCommitLog shared = over(log);
            GroupStates loaded = GroupStates.of(shared);
            assertNotNull(shared.checkpoints().loadResult().loaded(), "loaded from a checkpoint");
            live.assertSameAs(loaded, "loaded from the checkpoint, against the live state");
            assertTrue(shared.groups().find("lagging").index().lowestPosition() > oldLowest);
            CommitLogLogStorage lagging = CheckpointDriver.init(shared, "lagging");
            for (int i = 1; i <= 30; i++) {
                assertEquals(i, lagging.getEntry(i).getId().getIndex(), "lagging's entry " + i + " reads back");
            }
            lagging.shutdown();
            stopWithoutCheckpoint(log, shared);
        }
        replayed().assertSameAs(live, "a whole replay, against the live state");
    }
}
