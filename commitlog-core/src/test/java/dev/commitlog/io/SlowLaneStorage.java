package dev.commitlog.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A {@link StorageLayer} over a {@link SimulatedDisk} whose pipelined (lane) flushes each spend a
 * random while on their way to the device, as on a device with parallel queues: flushes claimed
 * one after another overlap, and a later range can reach the device while an earlier one has not
 * (a hole: the disk is switched to {@link SimulatedDisk#exactLaneWrites()}, so a lane flush makes
 * exactly its own bytes durable, as the production layer's {@code pwrite} and {@code fdatasync} do).
 *
 * <p>A flush overtaken that way lingers another millisecond before it reaches the device, so that the
 * hole stays open long enough for a crash image to show whatever was acknowledged meanwhile.
 *
 * <p>It observes, so that a test of the pipeline can prove the pipeline ran: how many lane flushes
 * ran at once, how many were overtaken by a later range of the same file, and which flushes found
 * the disk full. Only {@link SegmentFile#flushHeaderAndRange(int, int, int, int)} is
 * delayed and counted; recovery's flushes pass straight through.
 */
public final class SlowLaneStorage extends ForwardingStorageLayer {
    /** How long an overtaken flush lingers before it reaches the device. */
    private static final long OVERTAKEN_LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private final long maxDelayNanos;
    /** Lane flushes between their call and their return; guarded by itself. */
    private final List<LaneFlush> running = new ArrayList<>();
    private int maxRunning;
    private int overlappedStarts;
    private int holes;
    private int completed;
    /** "file@from" of each flush that found the disk full. */
    private final Set<String> fullRanges = new HashSet<>();
    /** Every lane flush, in the order they started (retries of a flush included). */
    private final List<Range> started = new ArrayList<>();
    /** The next lane flush to reach the device throws this instead, or null. */
    private final AtomicReference<String> failNext = new AtomicReference<>();
    private volatile Consumer<String> onOverlap = what -> { };

    /** @param maxDelayMicros each lane flush waits uniformly 0 to this many microseconds before it reaches the disk */
    public SlowLaneStorage(SimulatedDisk disk, int maxDelayMicros) {
        super(disk);
        disk.exactLaneWrites();
        this.maxDelayNanos = TimeUnit.MICROSECONDS.toNanos(maxDelayMicros);
    }

    /** A lane flush's byte range of a file. */
    public record Range(String file, int from, int to) {
        /** Whether this range lies after {@code other} in the log (files are named in log order). */
        public boolean after(Range other) {
            int byFile = file.compareTo(other.file);
            return byFile > 0 || (byFile == 0 && from >= other.to);
        }
    }

    /** One lane flush in progress: which range, and whether its bytes were handed to the device yet. */
    private static final class LaneFlush {
        final String file;
        final int from;
        final int to;
        final int lane;
        /** Guarded by {@link #running}: handed to the device. */
        boolean reached;
        /** Guarded by {@link #running}: a later range of the file became durable while this one had not reached the device. */
        boolean overtaken;

        LaneFlush(String file, int from, int to, int lane) {
            this.file = file;
            this.from = from;
            this.to = to;
            this.lane = lane;
        }

        boolean before(LaneFlush other) {
            return file.equals(other.file) && from < other.from;
        }

        @Override
        public String toString() {
            return file + " [" + from + ", " + to + ") on lane " + lane;
        }
    }

    /**
     * Called on the flushing thread, with a description, at the moments worth a crash image: when a
     * lane flush starts while others run (before it reaches the disk), and when an overtaken flush
     * is about to reach the device (a hole on the device, open for a while, description starting
     * with "hole").
     */
    public void onOverlap(Consumer<String> listener) {
        onOverlap = listener;
    }

    /** The most lane flushes that ever ran at once. */
    public int maxRunning() {
        synchronized (running) {
            return maxRunning;
        }
    }

    /** Lane flushes running now that have not reached the device yet. */
    public int pending() {
        synchronized (running) {
            int pending = 0;
            for (LaneFlush flush : running) {
                if (!flush.reached) {
                    pending++;
                }
            }
            return pending;
        }
    }

    /** The lane flushes started so far, in order (a retried flush once per attempt). */
    public List<Range> started() {
        synchronized (running) {
            return new ArrayList<>(started);
        }
    }

    /**
     * The next lane flush to reach the device fails with {@code IOException(message)} instead, a
     * fatal error (an EIO from its write or its sync), even while the disk is full; nothing of it
     * becomes durable.
     */
    public void failNextFlush(String message) {
        failNext.set(message);
    }

    /** Lane flushes running now (blocked on the disk's gate included). */
    public int running() {
        synchronized (running) {
            return running.size();
        }
    }

    /** Lane flushes that started while another ran. */
    public int overlappedStarts() {
        synchronized (running) {
            return overlappedStarts;
        }
    }

    /** Lane flushes overtaken: a later range of their file became durable before they reached the device. */
    public int holes() {
        synchronized (running) {
            return holes;
        }
    }

    /** Lane flushes that returned successfully. */
    public int completed() {
        synchronized (running) {
            return completed;
        }
    }

    /** How many distinct flushes (file and start offset) found the disk full. */
    public int distinctFullFlushes() {
        synchronized (running) {
            return fullRanges.size();
        }
    }

    @Override
    protected SegmentFile wrap(SegmentFile file) {
        return new SlowLanes(file);
    }

    private void flushOnLane(SegmentFile file, int headerLength, int from, int to, int lane) throws IOException {
        LaneFlush flush = new LaneFlush(file.path().getFileName().toString(), from, to, lane);
        int others;
        synchronized (running) {
            others = running.size();
            running.add(flush);
            started.add(new Range(flush.file, from, to));
            maxRunning = Math.max(maxRunning, others + 1);
            if (others > 0) {
                overlappedStarts++;
            }
        }
        try {
            if (others > 0) {
                onOverlap.accept("start of " + flush + " while " + others + " other flushes run");
            }
            long delay = ThreadLocalRandom.current().nextLong(maxDelayNanos + 1);
            if (delay > 0) {
                LockSupport.parkNanos(delay);
            }
            boolean overtaken;
            synchronized (running) {
                overtaken = flush.overtaken;
            }
            if (overtaken) {
                // A later range is durable and this one is not: keep the hole open a while, so that
                // anything the engine wrongly acknowledged meanwhile shows up in the image below.
                LockSupport.parkNanos(OVERTAKEN_LINGER_NANOS);
                onOverlap.accept("hole: " + flush + " reaches the device after a later range");
            }
            synchronized (running) {
                flush.reached = true;
            }
            String failure = failNext.getAndSet(null);
            if (failure != null) {
                throw new IOException(failure + " (simulated lane flush failure of " + flush + ")");
            }
            file.flushHeaderAndRange(headerLength, from, to, lane);
            synchronized (running) {
                completed++;
                for (LaneFlush other : running) {
                    if (!other.reached && other.before(flush) && !other.overtaken) {
                        other.overtaken = true;
                        holes++;
                    }
                }
            }
        } catch (NoSpaceLeftException e) {
            synchronized (running) {
                fullRanges.add(flush.file + "@" + from);
            }
            throw e;
        } finally {
            synchronized (running) {
                running.remove(flush);
            }
        }
    }

    /** A segment file whose lane flushes go through {@link #flushOnLane}; everything else is the disk's. */
    private final class SlowLanes extends ForwardingSegmentFile {
        SlowLanes(SegmentFile file) {
            super(file);
        }

        @Override
        public void flushHeaderAndRange(int headerLength, int from, int to, int lane) throws IOException {
            flushOnLane(delegate, headerLength, from, to, lane);
        }

        @Override
        public String toString() {
            return "slow lanes over " + delegate;
        }
    }
}
