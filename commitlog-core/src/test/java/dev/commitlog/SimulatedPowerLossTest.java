package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.io.CrashImageSchedule;
import dev.commitlog.io.ImageTally;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.testkit.DamageReports;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Simulated power loss (the BRIEF's "durability that is proven"): several threads append records
 * that encode (thread, seq) to a log over a {@link SimulatedDisk}; crash images are taken while
 * they run, from a separate thread at random moments and from the sync thread right after flush
 * events (sync boundaries), each under a random {@link SimulatedDisk.Loss} policy. Each image is
 * reopened and checked:
 * <ul>
 *   <li>Batch and Group: every record acknowledged before the image (append had returned) is
 *       present, byte-identical, at the position append returned.</li>
 *   <li>Periodic: every acknowledged record below the durable position read before the image
 *       (what the last completed flush covered) is present. The lag block's bound (nothing
 *       acknowledged more than {@code periodic_commitlog_sync_lag_block} before the crash is lost)
 *       is checked by {@link PeriodicPowerLossScenario}, whose writers fill many segments a period.</li>
 *   <li>All modes: every replayed record is one that was appended, byte-identical; no duplicate;
 *       each thread's records form a gap-free prefix in its append order; positions increase; no
 *       acknowledged record below the last replayed one is missing; an append after recovery
 *       works, replays, and survives another reopen.</li>
 * </ul>
 * Soundness: the set of acknowledged records (and the durable position) is read before the image
 * is taken, so a record counted as acknowledged was acknowledged before the crash moment.
 */
class SimulatedPowerLossTest {
    private static final int THREADS = 6;
    /** Per-thread cap, so that images stay a few segments long. */
    private static final int MAX_PER_THREAD = 1_200;
    private static final long SEED = Long.getLong("commitlog.test.seed", System.nanoTime());

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void everyAcknowledgedRecordSurvivesPowerLoss(SyncMode mode) throws Exception {
        Counts counts = new Scenario(mode, false, SEED + mode.ordinal(), dir, 130).run();
        System.out.printf("power loss %s: %s (seed %d)%n", mode, counts, SEED + mode.ordinal());
        // Aims at 130; a fast mode (Periodic) can reach the per-thread record cap first (99 seen once).
        assertTrue(counts.images >= 80, () -> "too few images: " + counts);
    }

    /**
     * {@code commitlog_disk_access_mode: direct}, as far as a simulated disk can take it: each flush
     * reaches the device as the direct layer writes it ({@link SimulatedDisk#writingDirectly()}:
     * whole blocks, the block a flush ended in written again by the next, zeros past the flushed
     * end), and a power loss keeps any subset of what was in flight. The same checks hold. What it
     * does not prove is the kernel's and the device's part ({@code O_DIRECT} then {@code fdatasync}
     * makes the blocks durable); {@code StraceFlushTest} shows the calls are made, in that order.
     */
    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE", "PERIODIC"})
    void everyAcknowledgedRecordSurvivesPowerLossWithDirectWrites(SyncMode mode) throws Exception {
        long seed = SEED + 300 + mode.ordinal();
        Counts counts = new Scenario(mode, false, seed, dir, 100).writingDirectly().run();
        System.out.printf("power loss %s, direct writes: %s (seed %d)%n", mode, counts, seed);
        assertTrue(counts.images >= 60, () -> "too few images: " + counts);
    }

    /**
     * Compressed and encrypted logs (each flush one section, format version 3): a section a power
     * loss tore or left half-written is the end of the log, and the same checks hold. Each setting
     * in Batch, the LZ4 + AES-GCM one in Periodic too.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("sectionedCases")
    void everyAcknowledgedRecordSurvivesPowerLossWithSections(SectionedLogs.Sections sections, SyncMode mode) throws Exception {
        long seed = SEED + 500 + mode.ordinal() + 10L * sections.compression().ordinal() + 100L * sections.encryption().ordinal();
        Counts counts = new Scenario(mode, false, seed, dir, 60).sectioned(sections).run();
        System.out.printf("power loss %s, %s: %s (seed %d)%n", mode, sections, counts, seed);
        assertTrue(counts.images >= 30, () -> "too few images: " + counts);
    }

    @Tag("slow")
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("sectionedCases")
    void everyAcknowledgedRecordSurvivesPowerLossWithSectionsManyImages(SectionedLogs.Sections sections, SyncMode mode) throws Exception {
        Counts total = new Counts();
        for (int round = 0; total.images < 1_000; round++) {
            Path roundDir = Files.createDirectories(dir.resolve("round-" + round));
            long seed = SEED + 1_000L * round + 500 + mode.ordinal() + 10L * sections.compression().ordinal();
            total.add(new Scenario(mode, false, seed, roundDir, 130).sectioned(sections).run());
        }
        System.out.printf("power loss %s, %s (slow): %s (seed %d)%n", mode, sections, total, SEED);
    }

    static Stream<Arguments> sectionedCases() {
        return Stream.concat(SectionedLogs.allSections().map(s -> Arguments.of(s, SyncMode.BATCH)),
                Stream.of(Arguments.of(new SectionedLogs.Sections(dev.commitlog.config.Compression.LZ4,
                        dev.commitlog.config.Encryption.AES_GCM), SyncMode.PERIODIC)));
    }

    /** appendAsync: a record counts as acknowledged once its callback ran; the same checks apply. */
    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void everyAsyncCompletionSurvivesPowerLoss(SyncMode mode) throws Exception {
        long seed = SEED + 100 + mode.ordinal();
        Counts counts = new Scenario(mode, true, seed, dir, 100).run();
        System.out.printf("power loss %s async: %s (seed %d)%n", mode, counts, seed);
        assertTrue(counts.images >= 50, () -> "too few images: " + counts);
    }

    @Tag("slow")
    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "GROUP", "ADAPTIVE"})
    void everyAsyncCompletionSurvivesPowerLossManyImages(SyncMode mode) throws Exception {
        Counts total = new Counts();
        for (int round = 0; total.images < 2_000; round++) {
            Path roundDir = Files.createDirectories(dir.resolve("round-" + round));
            total.add(new Scenario(mode, true, SEED + 1_000L * round + 100 + mode.ordinal(), roundDir, 130).run());
        }
        System.out.printf("power loss %s async (slow): %s (seed %d)%n", mode, total, SEED);
    }

    @Tag("slow")
    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void everyAcknowledgedRecordSurvivesPowerLossManyImages(SyncMode mode) throws Exception {
        Counts total = new Counts();
        for (int round = 0; total.images < 3_400; round++) {
            Path roundDir = Files.createDirectories(dir.resolve("round-" + round));
            Counts counts = new Scenario(mode, false, SEED + 1_000L * round + mode.ordinal(), roundDir, 130).run();
            total.add(counts);
        }
        System.out.printf("power loss %s (slow): %s (seed %d)%n", mode, total, SEED);
    }

    /**
     * Periodic's promise: with sync period P and lag block B, a crash loses nothing acknowledged
     * more than B (plus {@link PeriodicPowerLossScenario#MARGIN} for the scheduler) before it, while
     * writers fill many segments every period. In the second shape B equals P, so appends block
     * during every pass. See {@link PeriodicPowerLossScenario}.
     */
    @ParameterizedTest
    @MethodSource("periodicShapes")
    @Timeout(180)
    void periodicLosesNothingAcknowledgedMoreThanTheLagBlockBeforeTheCrash(PeriodicPowerLossScenario.Shape shape) throws Exception {
        long seed = SEED + 200 + shape.segmentsPerPeriod();
        PeriodicPowerLossScenario.Counts counts = new PeriodicPowerLossScenario(shape, seed, dir, 30).run();
        System.out.printf("power loss periodic, %s: %s (seed %d)%n", shape, counts, seed);
        assertPeriodicBound(shape, counts);
        assertTrue(counts.images >= 20, () -> "too few images: " + counts);
    }

    @Tag("slow")
    @ParameterizedTest
    @MethodSource("periodicShapesSlow")
    void periodicLosesNothingAcknowledgedMoreThanTheLagBlockBeforeTheCrashManyImages(PeriodicPowerLossScenario.Shape shape)
            throws Exception {
        PeriodicPowerLossScenario.Counts total = new PeriodicPowerLossScenario.Counts();
        for (int round = 0; total.images < 400; round++) {
            Path roundDir = Files.createDirectories(dir.resolve("round-" + round));
            total.add(new PeriodicPowerLossScenario(shape, SEED + 1_000L * round + 200, roundDir, 25).run());
        }
        System.out.printf("power loss periodic (slow), %s: %s (seed %d)%n", shape, total, SEED);
        assertPeriodicBound(shape, total);
    }

    static Stream<PeriodicPowerLossScenario.Shape> periodicShapes() {
        return Stream.of(new PeriodicPowerLossScenario.Shape(Duration.ofMillis(200), Duration.ofMillis(300), 8, 2, Duration.ofSeconds(2)),
                new PeriodicPowerLossScenario.Shape(Duration.ofMillis(100), Duration.ofMillis(100), 8, 1, Duration.ofSeconds(2)));
    }

    static Stream<PeriodicPowerLossScenario.Shape> periodicShapesSlow() {
        return Stream.concat(periodicShapes(), Stream.of(
                new PeriodicPowerLossScenario.Shape(Duration.ofMillis(100), Duration.ofMillis(150), 16, 3, Duration.ofMillis(1500))));
    }

    private static void assertPeriodicBound(PeriodicPowerLossScenario.Shape shape, PeriodicPowerLossScenario.Counts counts) {
        assertEquals(0, counts.broken, () -> counts.broken + " of " + counts.images + " crash images lost records acknowledged more than "
                + shape.lagBlock().toMillis() + " + " + PeriodicPowerLossScenario.MARGIN.toMillis() + " ms before them: " + counts);
        assertTrue(counts.required > 0, () -> "no record was acknowledged long enough before an image to be required: " + counts);
    }

    static final class Counts extends ImageTally {
        long recordsVerified;
        long acknowledgedChecked;
        int tornTailReports;

        void add(Counts other) {
            addImages(other);
            recordsVerified += other.recordsVerified;
            acknowledgedChecked += other.acknowledgedChecked;
            tornTailReports += other.tornTailReports;
        }

        @Override
        public String toString() {
            return super.toString() + ", " + recordsVerified
                    + " records replayed and verified, " + acknowledgedChecked + " acknowledged records required, "
                    + tornTailReports + " torn tails reported";
        }
    }

    /** The record thread {@code t} appends as its {@code seq}-th: (t, seq), then filler derived from both. */
    static byte[] record(int thread, int seq) {
        byte[] bytes = new byte[8 + Math.floorMod(thread * 7 + seq * 13, 120)];
        ByteBuffer.wrap(bytes).putInt(thread).putInt(seq);
        for (int b = 8; b < bytes.length; b++) {
            bytes[b] = (byte) (thread * 31 + seq * 17 + b * 7);
        }
        return bytes;
    }

    private record Snapshot(int index, String origin, SimulatedDisk.Loss loss, long imageSeed, int[] acked, long durable,
                            int[] started, SimulatedDisk image) {
        String describe(SyncMode mode) {
            return mode + " image #" + index + " (" + origin + ", loss " + loss + ", image seed " + imageSeed + ", durable "
                    + durable + ", acked " + Arrays.toString(acked) + ")";
        }
    }

    /** One run: appenders, crash images while they run, then every image reopened and checked. */
    static final class Scenario {
        private final SyncMode mode;
        /** Append with appendAsync; a record is acknowledged when its completion callback ran. */
        private final boolean async;
        /** With async: only odd-numbered threads append asynchronously, the others wait (and flush inline). */
        private boolean mixed;
        /** The file layer the live log runs over, given the disk and a hook that takes an image now. */
        private BiFunction<SimulatedDisk, Consumer<String>, StorageLayer> liveStorage = (simulated, capture) -> simulated;
        private final long seed;
        private final Path root;
        private final int targetImages;
        private SimulatedDisk disk = new SimulatedDisk();
        /** Null: plain segments. */
        private SectionedLogs.Sections sections;
        private final long[][] positions = new long[THREADS][MAX_PER_THREAD];
        private final AtomicIntegerArray started = new AtomicIntegerArray(THREADS);
        private final AtomicIntegerArray acked = new AtomicIntegerArray(THREADS);
        private final List<Snapshot> snapshots = new ArrayList<>();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private volatile CommitLog live;
        private CrashImageSchedule schedule;
        private volatile boolean stop;

        Scenario(SyncMode mode, boolean async, long seed, Path root, int targetImages) {
            this.mode = mode;
            this.async = async;
            this.seed = seed;
            this.root = root;
            this.targetImages = targetImages;
        }

        /** Runs the live log over {@code storage} (a layer over the disk, which may take images through the hook). */
        Scenario over(BiFunction<SimulatedDisk, Consumer<String>, StorageLayer> storage) {
            liveStorage = storage;
            return this;
        }

        /** The live log's disk takes its flushes as direct writes ({@link SimulatedDisk#writingDirectly()}). */
        Scenario writingDirectly() {
            disk = SimulatedDisk.writingDirectly();
            return this;
        }

        /** The log compresses or encrypts its flushes as {@code sections} say (format version 3). */
        Scenario sectioned(SectionedLogs.Sections sections) {
            this.sections = sections;
            return this;
        }

        private CommitLogConfig config(Path directory) {
            CommitLogConfig config = TestLogs.smallSegmentConfig(directory, mode);
            return sections == null ? config : sections.apply(config.toBuilder()).build();
        }

        private CommitLog open(CommitLogConfig config, StorageLayer storage, CorruptionListener listener) throws IOException {
            CommitLogOptions.Builder options = sections == null ? CommitLogOptions.builder().noJmx() : sections.options();
            return CommitLog.open(config, options.storage(storage).corruptionListener(listener).build());
        }

        /** Half the threads append asynchronously, half wait: both kinds of acknowledgment in one run. */
        Scenario mixed() {
            mixed = true;
            return this;
        }

        Counts run() throws Exception {
            int flushStride = mode == SyncMode.BATCH || mode == SyncMode.ADAPTIVE ? 3 : 1;
            schedule = new CrashImageSchedule(disk, seed, targetImages, flushStride, this::capture, this::allDone, failure)
                    .hookFlushes();
            live = open(config(Files.createDirectories(root.resolve("live"))), liveStorage.apply(disk, schedule::takeIfCapturing),
                    damageOnTheLiveLogFails());
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                threads.add(new Thread(() -> append(thread), "appender-" + t));
            }
            schedule.runWriters(threads, () -> stop = true);
            live.close();
            if (failure.get() != null) {
                // The cause in the message too: CI's summary prints the message, not the stack trace.
                throw new AssertionError("a thread failed in " + mode + " (seed " + seed + "): " + failure.get(), failure.get());
            }
            // After a clean close every acknowledged record is durable, whatever the mode.
            schedule.take("after close");

            Counts counts = new Counts();
            counts.fromFlushEvents = schedule.flushImages();
            Path reopen = Files.createDirectories(root.resolve("reopen"));
            for (Snapshot snapshot : snapshots) {
                verify(snapshot, reopen, counts);
            }
            return counts;
        }

        private static dev.commitlog.CorruptionListener damageOnTheLiveLogFails() {
            return (file, offset, position, reason, action) -> {
                throw new AssertionError("the live log reported damage: " + file + " offset " + offset + ": " + reason);
            };
        }

        private void append(int thread) {
            Random random = new Random(seed * 31 + thread);
            boolean async = this.async && (!mixed || thread % 2 == 1);
            AppendCallback completions = async ? completionsOf(thread) : null;
            try {
                for (int seq = 0; seq < MAX_PER_THREAD && !stop; seq++) {
                    // Without it a fast machine, or a slow capture, lets the appenders reach their cap with
                    // few images taken (CI once saw 48 of 100, with async appends on JDK 25).
                    schedule.keepPace(seq, MAX_PER_THREAD);
                    byte[] bytes = record(thread, seq);
                    started.set(thread, seq + 1);
                    if (async) {
                        live.appendAsync(bytes, 0, bytes.length, completions);
                        if (random.nextInt(2) == 0) { // paced, so that images fall among many flushes
                            LockSupport.parkNanos(random.nextInt(400_000));
                        }
                        continue;
                    }
                    long position = live.append(bytes, 0, bytes.length);
                    positions[thread][seq] = position;
                    acked.set(thread, seq + 1); // volatile store: publishes positions[thread][seq]
                    if (random.nextInt(4) == 0) {
                        LockSupport.parkNanos(random.nextInt(200_000));
                    }
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }

        /**
         * One thread's completions arrive in its append order (position order), on the completion
         * thread: the n-th completion acknowledges its n-th record.
         */
        private AppendCallback completionsOf(int thread) {
            return AppendCallback.of(position -> {
                int seq = acked.get(thread);
                positions[thread][seq] = position;
                acked.set(thread, seq + 1); // volatile store: publishes positions[thread][seq]
            }, (position, cause) -> {
                failure.compareAndSet(null, cause);
            });
        }

        private boolean allDone() {
            return CrashImageSchedule.allReached(acked, MAX_PER_THREAD, failure);
        }

        /** Acknowledged set first, then the durable position, then the image, then what had started. */
        private void capture(String origin, int index) {
            int[] ackedNow = CrashImageSchedule.counts(acked);
            long durable = live.durablePosition();
            CrashImageSchedule.SeededImage image = CrashImageSchedule.crashImage(disk, seed, index);
            int[] startedNow = CrashImageSchedule.counts(started);
            synchronized (snapshots) {
                snapshots.add(new Snapshot(index, origin, image.loss(), image.seed(), ackedNow, durable, startedNow, image.disk()));
            }
        }

        private void verify(Snapshot s, Path reopen, Counts counts) throws IOException {
            String what = s.describe(mode);
            DamageReports reports = new DamageReports();
            CommitLogConfig config = config(reopen);
            List<TestLogs.Entry> entries;
            long markerPosition;
            SimulatedDisk lossAfterRecovery;
            byte[] marker = "appended after recovery".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            try (CommitLog log = open(config, s.image(), reports)) {
                entries = TestLogs.replayAll(log);
                check(s, entries, reports, what, counts);
                lossAfterRecovery = s.image().crashImage(new Random(s.imageSeed()), SimulatedDisk.Loss.NONE);
                markerPosition = log.append(marker, 0, marker.length);
                log.sync();
                List<TestLogs.Entry> after = TestLogs.replayFrom(log, markerPosition);
                assertEquals(1, after.size(), () -> what + ": the append after recovery replays");
                assertArrayEquals(marker, after.get(0).payload(), what);
                if (!entries.isEmpty()) {
                    assertTrue(markerPosition > entries.get(entries.size() - 1).position(), what + ": appends resume after the end");
                }
            } catch (CorruptLogException e) {
                throw new AssertionError(what + ": reopening reported corruption; reports so far " + reports, e);
            }
            assertTrue(reports.onlyTornTails(), () -> what + ": damage other than a torn tail was reported: " + reports);
            counts.tornTailReports += reports.all().size();
            try (CommitLog log = open(config, s.image(), (file, offset, position, reason, action) ->
                    fail(what + ": second reopen reported " + reason + " at position " + position))) {
                List<TestLogs.Entry> again = TestLogs.replayAll(log);
                assertEquals(entries.size() + 1, again.size(), () -> what + ": a second reopen sees the same records and the marker");
                TestLogs.Entry last = again.get(again.size() - 1);
                assertEquals(markerPosition, last.position(), what);
                assertArrayEquals(marker, last.payload(), what);
            }
            // Power lost right after recovery: its own flushes made durable what it replayed, and
            // its durable mark claims nothing more.
            try (CommitLog log = open(config, lossAfterRecovery, (file, offset, position, reason, action) ->
                    fail(what + ": a power loss after recovery left " + reason + " at position " + position))) {
                TestLogs.assertReplaysExactly(entries, TestLogs.replayAll(log), what + ", power lost after recovery");
            }
            counts.counted(s.loss());
            counts.recordsVerified += entries.size();
        }

        private void check(Snapshot s, List<TestLogs.Entry> entries, DamageReports reports, String what, Counts counts) {
            int[] next = new int[THREADS];
            long previous = -1;
            for (TestLogs.Entry entry : entries) {
                byte[] payload = entry.payload();
                assertTrue(payload.length >= 8, () -> what + ": a record too short to be ours at " + entry.position());
                ByteBuffer b = ByteBuffer.wrap(payload);
                int thread = b.getInt();
                int seq = b.getInt();
                assertTrue(thread >= 0 && thread < THREADS && seq >= 0 && seq < s.started()[thread],
                        () -> what + ": replayed a record that was never appended: thread " + thread + " seq " + seq + " at " + entry.position());
                assertArrayEquals(record(thread, seq), payload, () -> what + ": record (" + thread + ", " + seq + ") differs");
                assertEquals(next[thread], seq, () -> what + ": thread " + thread + " replays seq " + seq + " after " + (next[thread] - 1)
                        + " (a duplicate, a gap or a reordering)");
                next[thread]++;
                assertTrue(entry.position() > previous, () -> what + ": positions do not increase at " + entry.position());
                previous = entry.position();
                if (seq < s.acked()[thread]) {
                    assertEquals(positions[thread][seq], entry.position(), () -> what + ": record (" + thread + ", " + seq
                            + ") replays at another position than append returned");
                }
            }
            long lastPosition = previous;
            for (int t = 0; t < THREADS; t++) {
                for (int seq = 0; seq < s.acked()[t]; seq++) {
                    long position = positions[t][seq];
                    long end = position + RecordDescriptor.alignedFrameLength(record(t, seq).length);
                    boolean required = mode != SyncMode.PERIODIC || end <= s.durable();
                    if (mode != SyncMode.PERIODIC) {
                        int thread = t;
                        int sq = seq;
                        assertTrue(end <= s.durable(), () -> what + ": record (" + thread + ", " + sq + ") was acknowledged but ends at "
                                + end + ", past the durable position " + s.durable());
                    }
                    if (required) {
                        counts.acknowledgedChecked++;
                    }
                    if ((required || position < lastPosition) && seq >= next[t]) {
                        int thread = t;
                        int sq = seq;
                        fail(what + ": acknowledged record (" + thread + ", " + sq + ") at position " + position + " (end " + end
                                + ") is missing after recovery; " + entries.size() + " records replayed, last at " + lastPosition
                                + "; damage reports " + reports);
                    }
                }
            }
        }
    }
}
