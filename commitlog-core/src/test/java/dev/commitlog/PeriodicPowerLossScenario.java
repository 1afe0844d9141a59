package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.io.CrashImageSchedule;
import dev.commitlog.io.ImageTally;
import dev.commitlog.io.SimulatedDisk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Periodic mode under simulated power loss, held to its promise: with sync period P and lag block
 * B, a crash loses nothing acknowledged more than B before it. Writers paced to fill several
 * segments every period append to a log over a {@link SimulatedDisk}; crash images are taken at
 * random moments from the test thread, and some on the sync thread right after a flush (in the
 * middle of a pass), each under a random {@link SimulatedDisk.Loss} policy. Each image is
 * reopened and checked: every record replayed is one a writer appended, byte-identical, each
 * writer's in order with no gap, at the position its append returned; every record acknowledged
 * more than B plus {@link #MARGIN} before the image is present.
 *
 * <p>Soundness: a record's acknowledgment time is read after its append returned, and an image's
 * time before the image is taken, so a required record was acknowledged at least B plus the
 * margin before the crash. The margin is for a loaded 2-core machine, where a thread may wait
 * tens of milliseconds for a core: the sync thread keeps the loss near one period, while a sync
 * that flushes one segment a period falls behind by most of the run.
 */
final class PeriodicPowerLossScenario {
    /** What the scheduler may add to the lag block: the loss is bounded by B plus this. */
    static final Duration MARGIN = Duration.ofMillis(250);
    private static final int RECORD_BASE = 512;
    private static final int FLUSH_IMAGE_STRIDE = 7;

    /** The log and the load: sync period, lag block, how many segments the writers fill per period, and how many writers. */
    record Shape(Duration period, Duration lagBlock, int segmentsPerPeriod, int writers, Duration run) {
        long bytesPerSecond() {
            return (long) segmentsPerPeriod * TestLogs.SMALL_SEGMENT * TimeUnit.SECONDS.toNanos(1) / period.toNanos();
        }

        @Override
        public String toString() {
            return "period " + period.toMillis() + " ms, lag block " + lagBlock.toMillis() + " ms, " + segmentsPerPeriod
                    + " segments of " + (TestLogs.SMALL_SEGMENT >> 10) + " KiB a period, writers " + writers + ", "
                    + run.toMillis() + " ms";
        }
    }

    static final class Counts extends ImageTally {
        long acknowledged;
        long required;
        long lost;
        /** Images that lost a record acknowledged more than B plus the margin before them. */
        int broken;
        long worstLossAgeNanos;
        String worst = "none";

        void add(Counts other) {
            addImages(other);
            acknowledged += other.acknowledged;
            required += other.required;
            lost += other.lost;
            broken += other.broken;
            if (other.worstLossAgeNanos > worstLossAgeNanos) {
                worstLossAgeNanos = other.worstLossAgeNanos;
                worst = other.worst;
            }
        }

        @Override
        public String toString() {
            return super.toString() + ", " + acknowledged + " acknowledged records at the images, " + required
                    + " acknowledged long enough before to be required, " + lost + " acknowledged lost ("
                    + String.format("%.1f%%", 100.0 * lost / Math.max(1, acknowledged)) + "), " + broken
                    + " images broke the bound, oldest loss " + TimeUnit.NANOSECONDS.toMillis(worstLossAgeNanos)
                    + " ms before its image (" + worst + ")";
        }
    }

    private record Snapshot(int index, String origin, long atNanos, int[] acked, long durable, CrashImageSchedule.SeededImage image) {
    }

    private final Shape shape;
    private final long seed;
    private final Path root;
    private final int targetImages;
    private final SimulatedDisk disk = new SimulatedDisk();
    private final AckTimeline[] timelines;
    private final List<Snapshot> snapshots = new ArrayList<>();
    private final AtomicInteger images = new AtomicInteger();
    private final AtomicInteger flushEvents = new AtomicInteger();
    private final AtomicInteger flushImages = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile CommitLog live;
    private volatile boolean capturing;
    private volatile boolean stop;

    PeriodicPowerLossScenario(Shape shape, long seed, Path root, int targetImages) {
        this.shape = shape;
        this.seed = seed;
        this.root = root;
        this.targetImages = targetImages;
        this.timelines = new AckTimeline[shape.writers()];
        long perWriter = 2 * shape.bytesPerSecond() * shape.run().toMillis() / 1000 / shape.writers() / RECORD_BASE;
        for (int w = 0; w < shape.writers(); w++) {
            timelines[w] = new AckTimeline((int) perWriter);
        }
    }

    /** The record writer {@code w} appends as its {@code seq}-th: (w, seq), then filler derived from both. */
    static byte[] record(int writer, int seq) {
        byte[] bytes = new byte[RECORD_BASE + Math.floorMod(writer * 7 + seq * 13, RECORD_BASE)];
        ByteBuffer.wrap(bytes).putInt(writer).putInt(seq);
        for (int b = 8; b < bytes.length; b++) {
            bytes[b] = (byte) (writer * 31 + seq * 17 + b * 7);
        }
        return bytes;
    }

    private CommitLogConfig config(Path dir) {
        return CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC).syncPeriod(shape.period())
                .periodicLagBlock(shape.lagBlock()).segmentSize(TestLogs.SMALL_SEGMENT).build();
    }

    Counts run() throws Exception {
        disk.onFlush(event -> {
            // On the sync thread, between two flushes of a pass: the moment a pass has covered the least.
            if (capturing && !event.failed() && flushEvents.incrementAndGet() % FLUSH_IMAGE_STRIDE == 0
                    && flushImages.get() < targetImages / 3) {
                flushImages.incrementAndGet();
                capture("after flush #" + event.sequence() + " of " + event.file());
            }
        });
        live = CommitLog.open(config(Files.createDirectories(root.resolve("live"))), disk, (file, offset, position, reason, action) -> {
            throw new AssertionError("the live log reported damage: " + file + " offset " + offset + ": " + reason);
        });
        List<Thread> writers = new ArrayList<>();
        long started = System.nanoTime();
        for (int w = 0; w < shape.writers(); w++) {
            int writer = w;
            Thread thread = new Thread(() -> append(writer, started), "periodic-writer-" + w);
            thread.setDaemon(true); // a writer left blocked by a broken log must not keep the JVM alive
            writers.add(thread);
        }
        writers.forEach(Thread::start);
        capturing = true;
        Random random = new Random(seed);
        long end = started + shape.run().toNanos();
        long meanGapNanos = shape.run().toNanos() / targetImages;
        while (System.nanoTime() < end && failure.get() == null) {
            LockSupport.parkNanos((long) (random.nextDouble() * 2 * meanGapNanos));
            capture("at a random moment");
        }
        capturing = false;
        stop = true;
        for (Thread writer : writers) {
            writer.join();
        }
        live.close();
        if (failure.get() != null) {
            throw new AssertionError("a writer failed (" + shape + ", seed " + seed + "): " + failure.get(), failure.get());
        }
        Counts counts = new Counts();
        counts.fromFlushEvents = flushImages.get();
        Path reopen = Files.createDirectories(root.resolve("reopen"));
        for (Snapshot snapshot : snapshots) {
            verify(snapshot, reopen, counts);
        }
        return counts;
    }

    /** Appends at the writer's share of the pace until told to stop. */
    private void append(int writer, long started) {
        AckTimeline timeline = timelines[writer];
        double bytesPerNano = (double) shape.bytesPerSecond() / shape.writers() / TimeUnit.SECONDS.toNanos(1);
        long written = 0;
        try {
            for (int seq = 0; !stop && !timeline.full(); seq++) {
                while (!stop && written > bytesPerNano * (System.nanoTime() - started)) {
                    LockSupport.parkNanos(100_000); // ahead of the pace
                }
                byte[] bytes = record(writer, seq);
                timeline.acked(live.append(bytes, 0, bytes.length), bytes.length);
                written += bytes.length;
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
    }

    /** Acknowledged counts first, then the image's time and the durable position, then the image. */
    private void capture(String origin) {
        int[] acked = new int[timelines.length];
        for (int w = 0; w < acked.length; w++) {
            acked[w] = timelines[w].count();
        }
        long at = System.nanoTime();
        long durable = live.durablePosition();
        int index = images.getAndIncrement();
        CrashImageSchedule.SeededImage image = CrashImageSchedule.crashImage(disk, seed, index);
        synchronized (snapshots) {
            snapshots.add(new Snapshot(index, origin, at, acked, durable, image));
        }
    }

    private void verify(Snapshot s, Path reopen, Counts counts) throws IOException {
        String what = "periodic image #" + s.index() + " (" + shape + ", " + s.origin() + ", loss " + s.image().loss() + ", seed "
                + seed + ", image seed " + s.image().seed() + ", durable " + s.durable() + ", acked " + Arrays.toString(s.acked()) + ")";
        List<TestLogs.Entry> entries;
        try (CommitLog log = CommitLog.open(config(reopen), s.image().disk(), TestLogs.TAIL_ONLY)) {
            entries = TestLogs.replayAll(log);
        } catch (CorruptLogException e) {
            throw new AssertionError(what + ": reopening reported corruption", e);
        }
        int[] next = new int[timelines.length];
        for (TestLogs.Entry entry : entries) {
            ByteBuffer b = ByteBuffer.wrap(entry.payload());
            int writer = b.getInt();
            int seq = b.getInt();
            assertTrue(writer >= 0 && writer < timelines.length, () -> what + ": a record of no writer at " + entry.position());
            assertEquals(next[writer], seq, () -> what + ": writer " + writer + " replays seq " + seq + " after " + (next[writer] - 1));
            assertArrayEquals(record(writer, seq), entry.payload(), () -> what + ": record (" + writer + ", " + seq + ") differs");
            if (seq < s.acked()[writer]) {
                long position = timelines[writer].end(seq) - RecordDescriptor.alignedFrameLength(entry.payload().length);
                assertEquals(position, entry.position(), () -> what + ": record (" + writer + ", " + seq + ") moved");
            }
            next[writer]++;
        }
        long requiredBefore = s.atNanos() - shape.lagBlock().toNanos() - MARGIN.toNanos();
        long oldestLost = Long.MAX_VALUE;
        for (int w = 0; w < timelines.length; w++) {
            AckTimeline timeline = timelines[w];
            int acked = s.acked()[w];
            counts.acknowledged += acked;
            for (int seq = 0; seq < acked && timeline.ackedAt(seq) <= requiredBefore; seq++) {
                counts.required++;
            }
            if (next[w] < acked) { // lost: this writer's records from next[w] on, acknowledged before the image
                counts.lost += acked - next[w];
                oldestLost = Math.min(oldestLost, timeline.ackedAt(next[w]));
            }
        }
        if (oldestLost != Long.MAX_VALUE) {
            long age = s.atNanos() - oldestLost;
            if (oldestLost <= requiredBefore) {
                counts.broken++;
            }
            if (age > counts.worstLossAgeNanos) {
                counts.worstLossAgeNanos = age;
                counts.worst = what;
            }
        }
        counts.counted(s.image().loss());
    }
}
