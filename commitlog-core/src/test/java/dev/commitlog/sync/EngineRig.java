package dev.commitlog.sync;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.commitlog.SyncTuning;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.instrument.AppenderMetrics;
import dev.commitlog.instrument.MetricsRecorder;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.segment.FrameWriter;
import dev.commitlog.segment.Segment;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentSyncer;
import dev.commitlog.segment.SegmentWriter;
import dev.commitlog.segment.SpareSegments;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A sync engine over a {@link FakeDevice} and a {@link FakeClock}, fed by the log's own segment
 * writer and frame writer, so records are claimed, framed and published as the log's appenders do
 * it. An {@link #append} is what the log's appender does once it has checked that the log is open
 * and not failed: publish the frame, then {@link SyncEngine#afterAppend}.
 *
 * <p>Waits here are bounded ({@link #TIMEOUT}) for liveness only: a test never passes or fails by
 * how long something took.
 */
final class EngineRig implements AutoCloseable {
    static final int SEGMENT_SIZE = SegmentDescriptor.MIN_SEGMENT_SIZE;
    /** The first log position a record can have: just past the first segment's header. */
    static final long FIRST_POSITION = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Path DIRECTORY = Path.of("fake-commitlog");
    private static final byte[] PAYLOAD = new byte[4096];

    final FakeDevice device = new FakeDevice();
    final FakeClock clock = new FakeClock();
    final SyncEngine engine;
    /** The engine's sync thread. */
    final Thread syncThread;
    private final SegmentWriter writer;
    private final ThreadLocal<FrameWriter> frames = ThreadLocal.withInitial(FrameWriter::new);
    private final ThreadLocal<Waiter> waiters = ThreadLocal.withInitial(
            () -> new Waiter(Thread.currentThread(), AppenderMetrics.unrecorded(Thread.currentThread())));
    private boolean closed;

    EngineRig(SyncSettings settings, SyncTuning tuning) {
        MetricsRecorder metrics = new MetricsRecorder();
        SegmentFile file = device.create(DIRECTORY.resolve(SegmentDescriptor.fileName(0)), SEGMENT_SIZE,
                SegmentHeader.encode(0, 0, SEGMENT_SIZE), Set.of());
        Segment first = new Segment(0, 0, file, SegmentDescriptor.SEGMENT_HEADER_LENGTH);
        SegmentSyncer syncer = new SegmentSyncer(first, SegmentDescriptor.SEGMENT_HEADER_LENGTH, metrics, segment -> { });
        writer = SegmentWriter.start(first, null, device, DIRECTORY, SEGMENT_SIZE, Set.of(),
                SpareSegments.none(device, DIRECTORY, SEGMENT_SIZE), metrics);
        engine = SyncEngine.create(settings, syncer, metrics, tuning, clock);
        device.watchDurable(engine::durablePosition);
        String name = "commitlog-sync-" + settings.mode().name().toLowerCase(Locale.ROOT);
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        engine.start();
        syncThread = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name) && !before.contains(t)).findFirst()
                .orElseThrow(() -> new AssertionError("no thread " + name + " started"));
    }

    /** Claims, copies and commits a record of {@code length} bytes, asking for no flush; returns its end position. */
    long publish(int length) {
        FrameWriter frame = frames.get();
        try {
            frame.claim(writer, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        frame.write(PAYLOAD, 0, length);
        frame.commit();
        return frame.endPosition();
    }

    /**
     * An append as the log makes it: publish, then wait as the mode says. Notes, as soon as the
     * engine let it go, whether a flush that covers the record had completed on the device.
     */
    Appended append(int length) {
        long end = publish(length);
        engine.afterAppend(end, waiter());
        return new Appended(end, device.syncedUpTo() >= end, Thread.currentThread().getName());
    }

    /** {@link SyncEngine#syncUpTo} in the calling thread, noting as {@link #append} does. */
    Appended syncTo(long position) {
        engine.syncUpTo(position, waiter());
        return new Appended(position, device.syncedUpTo() >= position, Thread.currentThread().getName());
    }

    /** This thread's waiter, made once, as the log's appenders hold theirs. */
    Waiter waiter() {
        return waiters.get();
    }

    /** One {@link #append} in a new thread named {@code name}. */
    Pending appendIn(String name, int length) {
        return inThread(name, () -> append(length));
    }

    /** Runs {@code action} in a new thread named {@code name}. */
    static Pending inThread(String name, Callable<Appended> action) {
        Pending pending = new Pending(name, action);
        pending.thread.start();
        return pending;
    }

    /** Where the next claim would start: everything claimed so far ends here. */
    long appendedPosition() {
        return writer.claimedPosition();
    }

    long durablePosition() {
        return engine.durablePosition();
    }

    /** Waits until the durable position reaches {@code position}; fails after {@link #TIMEOUT}. */
    void awaitDurable(long position) {
        awaitTrue(() -> engine.durablePosition() >= position, "the durable position reaches " + position);
    }

    /** Polls {@code condition} until it holds; fails after {@link #TIMEOUT}, naming {@code what}. */
    void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, () -> "timed out waiting until " + what + " (durable position "
                    + engine.durablePosition() + ", appended " + appendedPosition() + ", flushes " + device.flushes() + ")");
            LockSupport.parkNanos(100_000);
        }
    }

    /** Closes the engine (failing if it takes longer than {@link #TIMEOUT}), then the writer. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        CompletableFuture<Void> closing = new CompletableFuture<>();
        Thread closer = new Thread(() -> {
            engine.close();
            closing.complete(null);
        }, "engine-closer");
        closer.setDaemon(true);
        closer.start();
        try {
            closing.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            fail("close did not return within " + TIMEOUT + "; the sync thread is " + syncThread.getState());
        } catch (InterruptedException | ExecutionException e) {
            throw new AssertionError(e);
        } finally {
            writer.close();
        }
    }

    /** What an append or a sync came back with. */
    record Appended(long end, boolean coveredOnReturn, String thread) {
    }

    /** An append (or a sync) running in its own thread: its result or what it threw. */
    static final class Pending {
        final Thread thread;
        private final CompletableFuture<Appended> result = new CompletableFuture<>();

        private Pending(String name, Callable<Appended> action) {
            thread = new Thread(() -> {
                try {
                    result.complete(action.call());
                } catch (Throwable e) {
                    result.completeExceptionally(e);
                }
            }, name);
            thread.setDaemon(true);
        }

        boolean isDone() {
            return result.isDone();
        }

        /** Its result; fails if it threw, or if it has not returned within {@link #TIMEOUT}. */
        Appended get() {
            try {
                return result.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError(thread.getName() + " threw " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                throw new AssertionError(thread.getName() + " did not return within " + TIMEOUT + ": " + thread.getState());
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }

        /** What it threw; fails if it returned, or if it has not ended within {@link #TIMEOUT}. */
        Throwable failure() {
            try {
                Appended appended = result.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                throw new AssertionError(thread.getName() + " returned " + appended + " instead of failing");
            } catch (ExecutionException e) {
                return e.getCause();
            } catch (TimeoutException e) {
                throw new AssertionError(thread.getName() + " did not end within " + TIMEOUT + ": " + thread.getState());
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
