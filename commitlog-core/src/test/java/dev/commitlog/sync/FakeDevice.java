package dev.commitlog.sync;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.NoSpaceLeftException;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The file layer under a sync engine in a test: segment files in memory, each flush recorded (its
 * range in log positions, its order, the thread that ran it, how it ended). A flush can be held at
 * a gate until the test releases it, and can fail: with an {@link IOException} (a failed sync) or
 * with {@link NoSpaceLeftException} (the write found the disk full; the sync never ran, so the
 * engine may retry it).
 *
 * <p>As each flush runs, the device checks what the engine must never do, and records a violation
 * for {@link #assertNoViolations()}: two flushes at once; a flush after a failed one; a flush of
 * records that does not start where the durable position stands (so flushes are contiguous, in
 * position order, each published before the next begins); a durable position that moves while a
 * flush runs (published before the sync returned).
 */
final class FakeDevice implements StorageLayer {
    private static final long GATE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** How a flush ended. */
    enum Outcome {
        SYNCED,
        /** Threw the test's IOException: a failed sync. */
        FAILED,
        /** Threw NoSpaceLeftException: nothing written, nothing synced. */
        NO_SPACE
    }

    /**
     * One flush, in log positions: the header's first {@code headerLength} bytes and
     * {@code [from, to)}; a header-only flush (the exact durable mark at close) has
     * {@code from == to}. The times are {@link System#nanoTime()} as it began and as it returned.
     */
    record Flush(long segmentBase, int headerLength, long from, long to, String thread, Outcome outcome, long startedNanos,
                 long endedNanos) {
        boolean carriesRecords() {
            return to > from;
        }
    }

    private final Object gate = new Object();
    private final List<Flush> flushes = new ArrayList<>(); // under gate
    private final List<String> violations = new ArrayList<>(); // under gate
    private final List<FakeFile> files = new ArrayList<>(); // under gate
    private final AtomicInteger running = new AtomicInteger();
    private volatile LongSupplier durable = () -> SegmentDescriptor.SEGMENT_HEADER_LENGTH;
    private boolean holding; // under gate
    private int held; // under gate
    private IOException failNext; // under gate
    private boolean full; // under gate
    private boolean failed; // under gate
    /** The end of the last flush of records that synced. */
    private volatile long syncedUpTo = SegmentDescriptor.SEGMENT_HEADER_LENGTH;

    /** Where the engine publishes its durable position, for the checks made as each flush runs. */
    void watchDurable(LongSupplier durablePosition) {
        this.durable = durablePosition;
    }

    /** Flushes from now on wait at the gate until {@link #releaseFlushes()}. */
    void holdFlushes() {
        synchronized (gate) {
            holding = true;
        }
    }

    void releaseFlushes() {
        synchronized (gate) {
            holding = false;
            gate.notifyAll();
        }
    }

    /** The next flush to pass the gate fails with {@code failure}, as a failed fdatasync. */
    void failNextFlush(IOException failure) {
        synchronized (gate) {
            failNext = failure;
        }
    }

    /** Releases the held flushes, the first of them failing with {@code failure}. */
    void failHeldFlush(IOException failure) {
        synchronized (gate) {
            failNext = failure;
            holding = false;
            gate.notifyAll();
        }
    }

    /** While full, every flush that passes the gate finds no space to write. */
    void diskFull(boolean isFull) {
        synchronized (gate) {
            full = isFull;
        }
    }

    /** Waits until {@code count} flushes wait at the gate; fails after 10 s. */
    void awaitHeld(int count) {
        awaitGate(() -> held >= count, count + " flushes held at the gate");
    }

    /** Waits until {@code count} flushes found the disk full; fails after 10 s. */
    void awaitNoSpaceRefusals(int count) {
        awaitGate(() -> noSpaceRefusals() >= count, count + " flushes refused for want of space");
    }

    private void awaitGate(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + GATE_TIMEOUT_NANOS;
        synchronized (gate) {
            while (!condition.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    fail("timed out waiting for " + what + "; flushes so far: " + flushes);
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(gate, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    fail("interrupted waiting for " + what);
                }
            }
        }
    }

    /** Every flush so far, in the order they returned. */
    List<Flush> flushes() {
        synchronized (gate) {
            return List.copyOf(flushes);
        }
    }

    /** The flushes of records that synced, in order. */
    List<Flush> syncedRecordFlushes() {
        return flushes().stream().filter(f -> f.outcome() == Outcome.SYNCED && f.carriesRecords()).toList();
    }

    int noSpaceRefusals() {
        synchronized (gate) {
            return (int) flushes.stream().filter(f -> f.outcome() == Outcome.NO_SPACE).count();
        }
    }

    /** The end of the last flush of records that synced: everything the engine may call durable. */
    long syncedUpTo() {
        return syncedUpTo;
    }

    int segmentsCreated() {
        synchronized (gate) {
            return files.size();
        }
    }

    void assertNoViolations() {
        synchronized (gate) {
            assertTrue(violations.isEmpty(), "the engine broke a rule of flushing: " + violations + "; flushes: " + flushes);
        }
    }

    @Override
    public SegmentFile create(Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions) {
        ByteBuffer encoded = header.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        FakeFile file = new FakeFile(path, size, encoded.getLong(SegmentDescriptor.BASE_POSITION_OFFSET));
        file.buffer.put(0, encoded, 0, encoded.limit());
        synchronized (gate) {
            files.add(file);
        }
        return file;
    }

    @Override
    public SegmentFile open(Path path, boolean writable) {
        throw new UnsupportedOperationException("the engine's tests never reopen a segment");
    }

    @Override
    public List<Path> list(Path directory) {
        synchronized (gate) {
            return files.stream().map(FakeFile::path).toList();
        }
    }

    @Override
    public long size(Path path) {
        throw new UnsupportedOperationException("the engine's tests never ask a file's size");
    }

    @Override
    public void delete(Path path) {
        throw new UnsupportedOperationException("the engine's tests never delete a segment");
    }

    @Override
    public void syncDirectory(Path directory) {
    }

    private void flush(FakeFile file, int headerLength, int fromOffset, int toOffset) throws IOException {
        long from = file.base + fromOffset;
        long to = file.base + toOffset;
        long started = System.nanoTime();
        String thread = Thread.currentThread().getName();
        boolean alone = running.incrementAndGet() == 1;
        try {
            long durableAtStart = durable.getAsLong();
            IOException thrown;
            Outcome outcome;
            synchronized (gate) {
                if (!alone) {
                    violations.add(thread + " flushed [" + from + ", " + to + ") while another flush ran");
                }
                if (failed) {
                    violations.add(thread + " flushed [" + from + ", " + to + ") after a failed flush");
                }
                boolean crossedIntoThisSegment = durableAtStart == file.base && fromOffset == SegmentDescriptor.SEGMENT_HEADER_LENGTH;
                if (to > from && durableAtStart != from && !crossedIntoThisSegment) {
                    violations.add(thread + " flushed [" + from + ", " + to + ") while the durable position stood at " + durableAtStart);
                }
                held++;
                gate.notifyAll();
                boolean interrupted = false;
                while (holding) {
                    try {
                        gate.wait();
                    } catch (InterruptedException e) {
                        interrupted = true; // a device does not abandon a flush half-way
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                held--;
                if (failNext != null) {
                    thrown = failNext;
                    failNext = null;
                    failed = true;
                    outcome = Outcome.FAILED;
                } else if (full) {
                    thrown = new NoSpaceLeftException(file.path, new IOException("No space left on device"));
                    outcome = Outcome.NO_SPACE;
                } else {
                    thrown = null;
                    outcome = Outcome.SYNCED;
                }
            }
            if (outcome == Outcome.SYNCED && to > from) {
                syncedUpTo = to;
            }
            long durableAtEnd = durable.getAsLong();
            synchronized (gate) {
                if (durableAtEnd != durableAtStart) {
                    violations.add("the durable position moved from " + durableAtStart + " to " + durableAtEnd + " while " + thread
                            + " flushed [" + from + ", " + to + ")");
                }
                flushes.add(new Flush(file.base, headerLength, from, to, thread, outcome, started, System.nanoTime()));
                gate.notifyAll();
            }
            if (thrown != null) {
                throw thrown;
            }
        } finally {
            running.decrementAndGet();
        }
    }

    /** One segment file: a direct buffer, like the mapping, whose flushes go to the device. */
    private final class FakeFile implements SegmentFile {
        private final Path path;
        private final ByteBuffer buffer;
        private final long base;

        FakeFile(Path path, int size, long base) {
            this.path = path;
            this.buffer = ByteBuffer.allocateDirect(size);
            this.base = base;
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public ByteBuffer buffer() {
            return buffer;
        }

        @Override
        public void flush(int from, int to) throws IOException {
            FakeDevice.this.flush(this, 0, from, to);
        }

        @Override
        public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
            FakeDevice.this.flush(this, headerLength, from, to);
        }

        @Override
        public void close() {
        }
    }
}
