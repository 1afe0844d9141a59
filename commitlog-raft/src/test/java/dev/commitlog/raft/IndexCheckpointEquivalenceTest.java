package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The property the index checkpoints must keep: whatever the sequence of Raft calls, checkpoints,
 * compactions and restarts, the groups loaded from the newest checkpoint and the records after it
 * are, field by field ({@link GroupStates}), the groups a replay of the whole log builds, and the
 * groups the process held before it stopped. Two random sequences over four groups (and groups added
 * on the way), 64 KiB segments so that compactions discard; restarts are either clean (a checkpoint
 * written at close) or as after a kill (none: the newest checkpoint is older, and the records after
 * it, truncations and resets among them, are replayed).
 */
class IndexCheckpointEquivalenceTest {
    private static final long SEED = Long.getLong("commitlog.test.seed", System.nanoTime());
    private static final int SEGMENT = 64 * 1024;
    private static final int STEPS = 300;

    @TempDir
    Path directory;

    @Test
    void checkpointLoadsEqualWholeReplaysOverRandomCalls() throws IOException {
        int fromCheckpoint = 0;
        int restarts = 0;
        for (int run = 0; run < 2; run++) {
            Run result = new Run(SEED + run, directory.resolve("run-" + run));
            result.go();
            fromCheckpoint += result.fromCheckpoint;
            restarts += result.restarts;
        }
        System.out.printf("index checkpoints: %d restarts, %d loaded from a checkpoint (seed %d)%n", restarts, fromCheckpoint, SEED);
        String counts = fromCheckpoint + " of " + restarts + " restarts loaded from a checkpoint (seed " + SEED + ")";
        assertTrue(fromCheckpoint >= restarts / 2, () -> "too few loads from a checkpoint: " + counts);
    }

    private static final class Run {
        private final long seed;
        private final Random random;
        private final Path dir;
        private final Map<String, CommitLogLogStorage> storages = new LinkedHashMap<>();
        private final List<String> keys = new ArrayList<>(List.of("group-0", "group-1", "group-2", "group-3"));
        private CommitLog log;
        private RaftCommitLog shared;
        int fromCheckpoint;
        int restarts;

        Run(long seed, Path dir) {
            this.seed = seed;
            this.random = new Random(seed);
            this.dir = dir;
        }

        private CommitLog openLog() throws IOException {
            return CommitLog.open(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(SEGMENT).build());
        }

        void go() throws IOException {
            log = openLog();
            shared = RaftCommitLog.over(log);
            try {
                for (int step = 0; step < STEPS; step++) {
                    int choice = random.nextInt(100);
                    if (choice < 80) {
                        CheckpointDriver.call(random, storage(keys.get(random.nextInt(keys.size()))));
                    } else if (choice < 90) {
                        CheckpointDriver.sharedCall(random, shared);
                    } else if (choice < 92) {
                        keys.add("group-" + keys.size());
                    } else {
                        restart(random.nextBoolean(), "step " + step);
                    }
                }
                restart(true, "the end");
            } finally {
                log.close();
                shared.close();
            }
        }

        private CommitLogLogStorage storage(String key) {
            return storages.computeIfAbsent(key, k -> CheckpointDriver.init(shared, k));
        }

        /**
         * Stops (clean: the wrapper closed first, which writes a checkpoint; else the log closed
         * first, so none is written), replays the whole log, then loads from the checkpoints:
         * both equal what the process held, and the run goes on over the second.
         */
        private void restart(boolean clean, String when) throws IOException {
            String what = (clean ? "clean" : "killed") + " restart at " + when + " (seed " + seed + ")";
            GroupStates held = GroupStates.of(shared);
            storages.values().forEach(CommitLogLogStorage::shutdown);
            storages.clear();
            if (clean) {
                shared.close();
                log.close();
            } else {
                log.close();
                shared.close();
            }
            log = openLog();
            shared = RaftCommitLog.over(log, new NoCheckpointFiles());
            GroupStates replayed = GroupStates.of(shared);
            assertEquals(1, shared.groups().replays(), what);
            log.close();
            shared.close();

            log = openLog();
            shared = RaftCommitLog.over(log);
            GroupStates loaded = GroupStates.of(shared);
            IndexCheckpointLoader.Result load = shared.checkpoints().loadResult();
            assertTrue(load.refused().isEmpty(), () -> what + ": refused " + load.refused());
            replayed.assertSameAs(loaded, what + ", loaded from " + (load.loaded() == null ? "no checkpoint" : load.loaded().file())
                    + " against a whole replay");
            held.assertSameAs(loaded, what + ": loaded against the state held before");
            restarts++;
            if (load.loaded() != null) {
                fromCheckpoint++;
            }
        }
    }
}
