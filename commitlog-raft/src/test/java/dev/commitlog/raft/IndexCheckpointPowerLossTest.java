package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.CrashImageSchedule;
import dev.commitlog.io.ImageTally;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.raft.RefusedCheckpoint.Reason;
import dev.commitlog.testkit.DamageReports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Power loss under index checkpoints: three groups on one log over a {@link SimulatedDisk}, with
 * their checkpoint files on the same disk, driven by random Raft calls while another thread takes
 * checkpoints and compacts. Crash images at random moments, after flushes, and right after a
 * checkpoint file is written (before the older one is deleted), under every {@code Loss} policy.
 * Each image loads its groups from its checkpoints, then again by replaying its whole log: the two
 * are equal field by field, and a checkpoint is refused only because compaction discarded its
 * start (a durable checkpoint is never damaged, past the log's end or of another history).
 */
class IndexCheckpointPowerLossTest {
    private static final long SEED = Long.getLong("commitlog.test.seed", System.nanoTime());
    private static final int GROUPS = 3;
    private static final int TARGET_IMAGES = 100;
    private static final int CALLS_PER_GROUP = 250;
    private static final int SEGMENT = 64 * 1024;

    @TempDir
    Path root;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void checkpointLoadsEqualWholeReplaysAfterPowerLoss(SyncMode mode) throws Exception {
        long seed = SEED + mode.ordinal();
        Counts counts = new Scenario(mode, seed, root).run();
        System.out.printf("index checkpoints, power loss %s: %s (seed %d)%n", mode, counts, seed);
        assertTrue(counts.images >= TARGET_IMAGES / 2, () -> "too few images: " + counts);
        assertTrue(counts.fromCheckpoint >= counts.images / 4, () -> "too few images loaded from a checkpoint: " + counts);
    }

    static final class Counts extends ImageTally {
        int fromCheckpoint;
        int twoCheckpointFiles;
        int refusedDiscarded;
        int checkpointsWritten;

        @Override
        public String toString() {
            return super.toString() + "; " + checkpointsWritten + " checkpoints written by the live log, " + fromCheckpoint
                    + " images loaded from one (" + twoCheckpointFiles + " holding two files: a crash before the older one's deletion), "
                    + refusedDiscarded + " checkpoints refused as discarded";
        }
    }

    private static final class Scenario {
        private final SyncMode mode;
        private final long seed;
        private final Path root;
        private final SimulatedDisk disk = new SimulatedDisk();
        private final AtomicIntegerArray acked = new AtomicIntegerArray(GROUPS);
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final List<Image> images = new CopyOnWriteArrayList<>();
        private final CrashImageSchedule schedule;
        private volatile boolean stop;

        private record Image(String origin, CrashImageSchedule.SeededImage image) {
        }

        Scenario(SyncMode mode, long seed, Path root) {
            this.mode = mode;
            this.seed = seed;
            this.root = root;
            this.schedule = new CrashImageSchedule(disk, seed, TARGET_IMAGES, 3,
                    (origin, index) -> images.add(new Image(origin, CrashImageSchedule.crashImage(disk, seed, index))),
                    () -> CrashImageSchedule.allReached(acked, CALLS_PER_GROUP, failure), failure).hookFlushes();
        }

        private CommitLogConfig config(Path dir) {
            return CommitLogConfig.builder(dir).syncMode(mode).segmentSize(SEGMENT).build();
        }

        Counts run() throws Exception {
            Path live = Files.createDirectories(root.resolve("live-" + mode));
            Counts counts = new Counts();
            try (CommitLog log = CommitLog.open(config(live), disk, (file, offset, position, reason, action) -> failure.compareAndSet(null,
                    new AssertionError("the live log reported damage: " + file + " offset " + offset + ": " + reason)))) {
                RaftCommitLog shared = RaftCommitLog.over(log, new DiskCheckpointFiles(disk, live,
                        () -> schedule.takeIfCapturing("checkpoint file written")));
                List<Thread> threads = new ArrayList<>();
                for (int g = 0; g < GROUPS; g++) {
                    CommitLogLogStorage storage = CheckpointDriver.init(shared, "group-" + g);
                    int group = g;
                    threads.add(new Thread(() -> drive(group, storage), "driver-" + g));
                }
                threads.add(new Thread(() -> checkpoints(shared), "checkpointer"));
                schedule.runWriters(threads, () -> stop = true);
                counts.checkpointsWritten = shared.checkpoints().written();
                stopWithoutCheckpoint(log, shared);
            }
            if (failure.get() != null) {
                throw new AssertionError("a thread failed in " + mode + " (seed " + seed + "): " + failure.get(), failure.get());
            }
            counts.fromFlushEvents = schedule.flushImages();
            Path reopen = Files.createDirectories(root.resolve("reopen-" + mode));
            for (Image image : images) {
                verify(image, reopen, counts);
            }
            return counts;
        }

        private void drive(int group, CommitLogLogStorage storage) {
            Random random = new Random(seed * 31 + group);
            try {
                for (int call = 0; call < CALLS_PER_GROUP && !stop; call++) {
                    schedule.keepPace(call, CALLS_PER_GROUP);
                    CheckpointDriver.call(random, storage);
                    acked.incrementAndGet(group);
                    if (random.nextInt(4) == 0) {
                        LockSupport.parkNanos(random.nextInt(200_000));
                    }
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }

        private void checkpoints(RaftCommitLog shared) {
            Random random = new Random(seed * 37);
            try {
                while (!stop) {
                    if (random.nextInt(4) == 0) {
                        shared.compact();
                    } else {
                        shared.checkpoint();
                    }
                    LockSupport.parkNanos(random.nextInt(500_000));
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }

        private void verify(Image taken, Path reopen, Counts counts) throws IOException {
            CrashImageSchedule.SeededImage image = taken.image();
            String what = mode + " image (" + taken.origin() + ", loss " + image.loss() + ", image seed " + image.seed() + ", run seed "
                    + seed + ")";
            SimulatedDisk disk = image.disk();
            DiskCheckpointFiles files = new DiskCheckpointFiles(disk, reopen, () -> { });
            long checkpointFiles = files.list().stream().filter(name -> IndexCheckpointDescriptor.startOf(name) >= 0).count();
            GroupStates loaded;
            IndexCheckpointLoader.Result result;
            DamageReports reports = new DamageReports();
            try (CommitLog log = CommitLog.open(config(reopen), disk, reports)) {
                assertTrue(reports.onlyTornTails(), () -> what + ": damage other than a torn tail: " + reports);
                RaftCommitLog shared = RaftCommitLog.over(log, files);
                loaded = GroupStates.of(shared);
                result = shared.checkpoints().loadResult();
                stopWithoutCheckpoint(log, shared);
            }
            GroupStates replayed;
            try (CommitLog log = CommitLog.open(config(reopen), disk, new DamageReports())) {
                RaftCommitLog shared = RaftCommitLog.over(log, new NoCheckpointFiles());
                replayed = GroupStates.of(shared);
                assertEquals(1, shared.groups().replays());
                stopWithoutCheckpoint(log, shared);
            }
            String from = result.loaded() == null ? "no checkpoint" : result.loaded().file();
            replayed.assertSameAs(loaded, what + ", loaded from " + from + " against a whole replay");
            for (RefusedCheckpoint refused : result.refused()) {
                assertEquals(Reason.DISCARDED, refused.reason(), () -> what + ": " + refused.getMessage());
                counts.refusedDiscarded++;
            }
            if (result.loaded() != null) {
                counts.fromCheckpoint++;
                if (checkpointFiles >= 2) {
                    counts.twoCheckpointFiles++;
                }
            }
            counts.counted(image.loss());
        }

        private static void stopWithoutCheckpoint(CommitLog log, RaftCommitLog shared) {
            log.close();
            shared.close();
        }
    }
}
