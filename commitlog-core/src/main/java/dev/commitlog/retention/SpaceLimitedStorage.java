package dev.commitlog.retention;

import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.instrument.MetricsRecorder;
import dev.commitlog.io.ForwardingStorageLayer;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.lifecycle.SpaceListener;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enforces {@code commitlog_total_space} where segment files are made: a {@link StorageLayer} over
 * the real one that counts the bytes of segment files in the directory and makes {@link #create}
 * wait while one more segment would exceed the budget, asking the {@link SpaceListener} to free
 * space. Only the segment allocator creates files through it, so only appends that need a new
 * segment ever wait; {@link #delete} (called by {@code discardUpTo}) gives the space back and wakes
 * the allocator.
 *
 * <p>Assumptions and guarantees: the count starts from the segment files present after recovery
 * and changes only through this object (creations, and deletions by retention). The budget is
 * never exceeded by a file this object creates: the space is reserved before the file is written.
 * While the allocator waits, one warning is logged at once and then at most every
 * {@link #WARN_INTERVAL_NANOS}; {@link #close} ends the wait with an {@link IOException}.
 */
public final class SpaceLimitedStorage extends ForwardingStorageLayer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SpaceLimitedStorage.class);
    private static final long WARN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** While appends wait for space, how often the wait looks whether a higher position can be asked for. */
    private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Path directory;
    private final long budget;
    private final SpaceListener listener;
    private final LongSupplier durablePosition;
    private final MetricsRecorder metrics;
    private final Object lock = new Object();
    /** Bytes of segment files, reservations for files being created included; guarded by lock. */
    private long used;
    private boolean closed;

    /**
     * @param budget          {@code commitlog_total_space} in bytes
     * @param listener        the embedding node's listener, or null (then only {@code discardUpTo} frees space)
     * @param durablePosition the log's durable position: no position above it is asked for, since
     *                        {@code discardUpTo} refuses one
     */
    public SpaceLimitedStorage(StorageLayer delegate, Path directory, long budget, SpaceListener listener, LongSupplier durablePosition,
                               MetricsRecorder metrics) throws IOException {
        super(delegate);
        this.directory = directory;
        this.budget = budget;
        this.listener = listener;
        this.durablePosition = durablePosition;
        this.metrics = metrics;
        long total = 0;
        for (Path file : delegate.list(directory)) {
            String name = file.getFileName().toString();
            if (SegmentDescriptor.parseId(name) >= 0 || SegmentDescriptor.parseRecycledId(name) >= 0) {
                total += delegate.size(file); // spares (recycled files) take space as segments do
            }
        }
        this.used = total;
    }

    /** Whether {@code bytes} more would fit in the budget now. */
    public boolean hasRoomFor(long bytes) {
        synchronized (lock) {
            return used + bytes <= budget;
        }
    }

    /** Bytes of segment files in the directory now. */
    public long used() {
        synchronized (lock) {
            return used;
        }
    }

    @Override
    public SegmentFile create(Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions) throws IOException {
        reserve(size);
        SegmentFile file;
        try {
            file = delegate.create(path, size, header, permissions);
        } catch (IOException | RuntimeException | Error e) {
            release(size);
            throw e;
        }
        long afterNext;
        synchronized (lock) {
            afterNext = used + size;
        }
        if (afterNext > budget) {
            // The next segment will not fit: ask now, so the node has this segment's worth of appends to free space.
            long position = positionFreeing(afterNext - budget);
            LOG.debug("commit log {}: the next segment would pass commitlog_total_space ({} bytes); asking to persist up to {}",
                    directory, budget, position);
            ask(position);
        }
        return file;
    }

    /**
     * Waits until {@code size} more bytes fit in the budget, then takes them. While it waits it
     * asks the listener again whenever the position that would free the space has grown (the
     * durable position caps what it can ask for, and moves on while appends wait), and at least
     * every {@link #WARN_INTERVAL_NANOS}, with a warning.
     */
    private void reserve(long size) throws IOException {
        long blockedSince = 0;
        long lastWarned = 0;
        long lastAsked = -1;
        for (;;) {
            long needed;
            boolean warn;
            synchronized (lock) {
                if (closed) {
                    throw new IOException("commit log " + directory + " closed while appends waited for space");
                }
                if (used + size <= budget) {
                    used += size;
                    break;
                }
                long now = System.nanoTime();
                if (blockedSince == 0) {
                    blockedSince = now;
                }
                warn = lastWarned == 0 || now - lastWarned >= WARN_INTERVAL_NANOS;
                needed = used + size - budget;
            }
            long position = positionFreeing(needed);
            if (!warn && position <= lastAsked) {
                synchronized (lock) {
                    waitForRelease(RECHECK_NANOS);
                }
                continue;
            }
            lastAsked = Math.max(lastAsked, position);
            if (!warn) {
                ask(position);
                continue;
            }
            lastWarned = System.nanoTime();
            LOG.warn("commit log {} is full: segment files use {} bytes of commitlog_total_space {} and a new segment needs {} more; "
                            + "appends are blocked until segments are discarded. {} (blocked for {} s so far)",
                    directory, used(), budget, size,
                    whatFreesSpace(position),
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - blockedSince));
            ask(position);
        }
        if (blockedSince != 0) {
            LOG.info("commit log {}: space was freed, appends resume after {} ms blocked", directory,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - blockedSince));
        }
    }

    /** The warning's advice: who must discard up to where. */
    private String whatFreesSpace(long position) {
        if (listener == null) {
            return "No space listener is registered: the embedding node must call discardUpTo("
                    + (position == 0 ? "durablePosition()) once a segment is wholly durable." : position + ").");
        }
        return position == 0 ? "No segment is wholly durable yet; the space listener is asked once one is."
                : "Asked the space listener to persist up to position " + position + " and call discardUpTo.";
    }

    private void waitForRelease(long nanos) throws InterruptedIOException {
        try {
            TimeUnit.NANOSECONDS.timedWait(lock, nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for commit log space");
        }
    }

    private void ask(long position) {
        if (position == 0) {
            return; // no segment is wholly durable yet: nothing a discard could delete
        }
        metrics.spaceRequested();
        if (listener == null) {
            return;
        }
        try {
            listener.persistUpTo(position);
        } catch (RuntimeException e) {
            LOG.error("commit log space listener failed for position {}; asked again while space is short", position, e);
        }
    }

    /**
     * The end position of the oldest segments whose deletion frees {@code needed} bytes (all of
     * them, if even that is not enough), counting only segments wholly below the durable position:
     * {@code discardUpTo} refuses a position past it, and a segment not wholly durable cannot be
     * deleted yet anyway. 0 when no segment can go yet.
     */
    private long positionFreeing(long needed) throws IOException {
        long durable = durablePosition.getAsLong();
        long freed = 0;
        long position = 0;
        List<SegmentRef> segments = SegmentRef.list(delegate, directory);
        for (SegmentRef ref : segments) {
            SegmentHeader header = ref.readHeader(delegate);
            if (header == null) {
                continue;
            }
            if (header.endPosition() > durable) {
                break;
            }
            freed += header.segmentSize();
            position = header.endPosition();
            if (freed >= needed) {
                break;
            }
        }
        return position;
    }

    private void release(long size) {
        synchronized (lock) {
            used -= size;
            lock.notifyAll();
        }
    }

    /** A spare keeps its space; a layer that deletes instead gives it back. */
    @Override
    public boolean retire(Path segment, Path spare) throws IOException {
        long size = delegate.size(segment);
        boolean kept = delegate.retire(segment, spare);
        if (!kept) {
            release(size);
        }
        return kept;
    }

    /** A spare is counted already: reusing it takes no more space (the file keeps its size). */
    @Override
    public SegmentFile reuse(Path spare, Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions)
            throws IOException {
        return delegate.reuse(spare, path, size, header, permissions);
    }

    @Override
    public void delete(Path path) throws IOException {
        long size;
        try {
            size = delegate.size(path);
        } catch (NoSuchFileException e) {
            return;
        }
        delegate.delete(path);
        release(size);
    }

    /** Ends any wait for space: the waiting {@link #create} throws. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
    }
}
