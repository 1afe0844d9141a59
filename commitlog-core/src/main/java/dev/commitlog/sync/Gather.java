package dev.commitlog.sync;

import dev.commitlog.segment.SegmentSyncer;

/**
 * Adaptive's gather. Before a flush, the flusher waits for the
 * writers the previous flush released to append again, but only while they arrive faster than the
 * flush would serve them ({@link #keepGathering}) and never longer than the last flush took
 * (PostgreSQL's {@code commit_delay} gated by {@code commit_siblings}, both measured instead of
 * configured). Without it a few writers split into two cohorts that take turns, each flush
 * carrying half of them. A lone writer never waits: the previous flush released one record, the
 * one being flushed.
 */
final class Gather {
    /** The gather. Flush-role holder only; returns how long it waited. */
    long gather(SegmentSyncer syncer) {
        // Published since the last claim: those that arrived while the last flush ran, then those it released.
        int expected = syncer.recordsWhenPublished() + syncer.lastFlushRecords();
        int seen = syncer.publishedRecords();
        long flushNanos = syncer.lastFlushNanos();
        if (seen >= expected || seen == 0 || flushNanos <= 0) {
            return 0;
        }
        long started = System.nanoTime();
        long lastArrival = started;
        long now = started;
        while (seen < expected && keepGathering(flushNanos, now - started, now - lastArrival, seen)) {
            // Not a spin: on a few cores a spinning gatherer holds the core a returning writer needs.
            Thread.yield();
            now = System.nanoTime();
            int published = syncer.publishedRecords();
            if (published > seen) {
                seen = published;
                lastArrival = now;
            }
        }
        return now - started;
    }

    /**
     * Whether waiting longer for released writers still pays. The flush waits at most as long as the
     * last one took, and only while writers arrive faster than one per {@code flushNanos / records}:
     * waiting a moment longer delays each of the {@code records} already gathered by that moment,
     * while a writer that arrives within it and is let go would wait for the whole next flush. So
     * the sum of the records' waits falls only while arrivals come more often than the flush time
     * divided by the records waiting. Writers that come back from a wait they yielded through arrive
     * within tens of microseconds and are worth it; dozens that the flusher must unpark one by one
     * (a system call each) are not: the device would sit idle while the CPU wakes them.
     *
     * @param flushNanos        how long the last flush took
     * @param waitedNanos       how long this gather has waited
     * @param sinceArrivalNanos how long since the last record arrived (or the gather started)
     * @param records           records the flush would carry now, at least 1
     */
    static boolean keepGathering(long flushNanos, long waitedNanos, long sinceArrivalNanos, int records) {
        return waitedNanos < flushNanos && sinceArrivalNanos <= flushNanos / records;
    }
}
