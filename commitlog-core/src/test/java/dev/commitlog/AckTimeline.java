package dev.commitlog;

import dev.commitlog.format.RecordDescriptor;

/**
 * One writer's acknowledgments: where each record it appended ends, and when its append returned
 * (read right after the return, so never earlier than the acknowledgment). Given a durable position
 * read at a known moment, it tells how long the oldest acknowledged record that was not durable
 * had been acknowledged: the lag that {@code periodic_commitlog_sync_lag_block} bounds. The writer
 * records, any thread reads; arrays are preallocated, so recording allocates nothing.
 */
final class AckTimeline {
    private final long[] ends;
    private final long[] ackedAt;
    /** Records whose end and time are written; volatile store after both (publishes them). */
    private volatile int count;

    AckTimeline(int capacity) {
        ends = new long[capacity];
        ackedAt = new long[capacity];
    }

    boolean full() {
        return count == ends.length;
    }

    /** Writer: the record of {@code payloadLength} bytes at {@code position} was acknowledged, now. */
    void acked(long position, int payloadLength) {
        long now = System.nanoTime();
        int n = count;
        ends[n] = position + RecordDescriptor.alignedFrameLength(payloadLength);
        ackedAt[n] = now;
        count = n + 1;
    }

    int count() {
        return count;
    }

    long ackedAt(int index) {
        return ackedAt[index];
    }

    /** Where record {@code index} ends in the log. */
    long end(int index) {
        return ends[index];
    }

    /**
     * The first of the first {@code n} records (ends ascend: one writer) that ends past
     * {@code durable}, or {@code n} if every one is durable.
     */
    int firstNotDurable(int n, long durable) {
        int low = 0;
        int high = n;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (ends[mid] <= durable) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** One look at the log: the oldest acknowledged record not durable then, and the newest. */
    record Sample(long atNanos, long durable, long appended, long oldestNotDurableNanos, long newestNotDurableNanos) {
        /** How long the oldest record not durable had been acknowledged (0 if all were durable). */
        long lagNanos() {
            return oldestNotDurableNanos < 0 ? 0 : Math.max(0, atNanos - oldestNotDurableNanos);
        }

        /** How far apart the acknowledgments of the records not durable lie (0 if all were durable). */
        long spanNanos() {
            return oldestNotDurableNanos < 0 ? 0 : Math.max(0, newestNotDurableNanos - oldestNotDurableNanos);
        }
    }

    /**
     * Samples {@code log} now. The time is read first, then the durable position, then the count:
     * a record past that durable position was not durable at that time either (the position only
     * grows), and its recorded time is never earlier than its acknowledgment, so the lag is never
     * over-stated.
     */
    Sample sample(CommitLog log) {
        long now = System.nanoTime();
        long durable = log.durablePosition();
        int n = count;
        int first = firstNotDurable(n, durable);
        long appendedEnd = n == 0 ? 0 : ends[n - 1];
        if (first == n) {
            return new Sample(now, durable, appendedEnd, -1, -1);
        }
        return new Sample(now, durable, appendedEnd, ackedAt[first], ackedAt[n - 1]);
    }
}
