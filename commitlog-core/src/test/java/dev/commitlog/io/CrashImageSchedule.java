package dev.commitlog.io;

import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * When a power-loss test takes its crash images of a {@link SimulatedDisk} while writers run:
 * half of {@code targetImages} from a snapshot thread at random moments, half on the flushing
 * thread right after every {@code flushStride}-th successful flush (sync boundaries). Writers call
 * {@link #keepPace} so that they do not run out of work before the timed images reach their share.
 * The test's {@link Capture} takes each image; this class only says when, and numbers them.
 */
public final class CrashImageSchedule {
    /** Takes image number {@code index} now; {@code origin} says what triggered it. */
    @FunctionalInterface
    public interface Capture {
        void take(String origin, int index);
    }

    /** A crash image and what chose it, so that a failure names how to take it again. */
    public record SeededImage(long seed, SimulatedDisk.Loss loss, SimulatedDisk disk) {
    }

    /** Image number {@code index} of the run seeded {@code runSeed}: its own seed picks the loss policy and the lost sectors. */
    public static SeededImage crashImage(SimulatedDisk disk, long runSeed, int index) {
        long imageSeed = runSeed * 1_000_003L + index;
        Random random = new Random(imageSeed);
        SimulatedDisk.Loss loss = SimulatedDisk.Loss.random(random);
        return new SeededImage(imageSeed, loss, disk.crashImage(random, loss));
    }

    /** Each writer's count now, read one by one (a writer's count only grows). */
    public static int[] counts(AtomicIntegerArray perWriter) {
        int[] now = new int[perWriter.length()];
        for (int i = 0; i < now.length; i++) {
            now[i] = perWriter.get(i);
        }
        return now;
    }

    /** True once every writer's count reached {@code target}, or once a writer failed. */
    public static boolean allReached(AtomicIntegerArray perWriter, int target, AtomicReference<Throwable> failure) {
        for (int i = 0; i < perWriter.length(); i++) {
            if (perWriter.get(i) < target) {
                return failure.get() != null;
            }
        }
        return true;
    }

    private final SimulatedDisk disk;
    private final long seed;
    private final int targetImages;
    private final int flushStride;
    private final Capture capture;
    private final BooleanSupplier writersDone;
    private final AtomicReference<Throwable> failure;
    private final AtomicInteger images = new AtomicInteger();
    private final AtomicInteger flushImages = new AtomicInteger();
    private final AtomicInteger flushEvents = new AtomicInteger();
    private final Thread snapshotter = new Thread(this::snapshotLoop, "snapshotter");
    private volatile boolean capturing;
    /** While the snapshot thread takes its timed images, writers keep pace with them. */
    private volatile boolean snapshotting = true;

    /**
     * @param writersDone true once the writers have nothing left to do (the snapshot thread stops waiting for images then)
     * @param failure     where a failure of the snapshot thread is recorded (the test's first failure wins)
     */
    public CrashImageSchedule(SimulatedDisk disk, long seed, int targetImages, int flushStride, Capture capture,
                              BooleanSupplier writersDone, AtomicReference<Throwable> failure) {
        this.disk = disk;
        this.seed = seed;
        this.targetImages = targetImages;
        this.flushStride = flushStride;
        this.capture = capture;
        this.writersDone = writersDone;
        this.failure = failure;
    }

    /** Hooks the disk's flushes. Images are taken while {@link #runWriters} runs them. */
    public CrashImageSchedule hookFlushes() {
        disk.onFlush(event -> {
            if (capturing && !event.failed() && flushEvents.incrementAndGet() % flushStride == 0
                    && flushImages.get() < targetImages / 2) {
                flushImages.incrementAndGet();
                take("after flush #" + event.sequence() + " of " + event.file() + " [" + event.from() + ", " + event.to() + ")");
            }
        });
        return this;
    }

    /**
     * Runs the writers while images are taken: flush events take images and the snapshot thread
     * runs from before the writers start until it is done (the images reached their target, or
     * the writers are done); then the writers are asked to stop ({@code stopWriters}) and joined,
     * and no image is taken after. A writer's failure is the test's to record and check.
     */
    public void runWriters(List<Thread> writers, Runnable stopWriters) throws InterruptedException {
        capturing = true;
        snapshotter.start();
        writers.forEach(Thread::start);
        snapshotter.join();
        stopWriters.run();
        for (Thread writer : writers) {
            writer.join();
        }
        capturing = false;
    }

    /** Takes an image now, numbered after the others. */
    public void take(String origin) {
        capture.take(origin, images.getAndIncrement());
    }

    /** Takes an image now if capturing (a hook inside the file layer calls this). */
    public void takeIfCapturing(String origin) {
        if (capturing) {
            take(origin);
        }
    }

    /** Waits while a writer at {@code progress} of {@code total} steps is further through its work than the images are through their target. */
    public void keepPace(int progress, int total) {
        while (snapshotting && (long) images.get() * total < (long) progress * targetImages) {
            LockSupport.parkNanos(50_000);
        }
    }

    /** Images taken at flush events. */
    public int flushImages() {
        return flushImages.get();
    }

    private void snapshotLoop() {
        Random random = new Random(seed);
        try {
            while (images.get() - flushImages.get() < targetImages - targetImages / 2 && !writersDone.getAsBoolean()) {
                LockSupport.parkNanos(random.nextInt(600_000));
                take("from snapshot thread");
            }
            snapshotting = false;
            // Let flush-event images reach their share too (bounded: the writers run out).
            while (flushImages.get() < targetImages / 2 && !writersDone.getAsBoolean()) {
                LockSupport.parkNanos(200_000);
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        } finally {
            snapshotting = false;
        }
    }
}
