package dev.commitlog.retention;

import dev.commitlog.segment.Segment;
import java.util.function.Consumer;

/**
 * Hands each sealed, durable segment from the sync thread to the {@link SegmentLifecycle}, which is
 * made after the syncer that calls this (its retention reads the syncer's durable position).
 *
 * <p>Why an object of its own and not a method reference to the log: the sync service is
 * reachable from every appending thread's context, and nothing reachable from there may reach the
 * log, or a closed log would stay alive as long as any thread that appended to it
 * ({@code ClosedLogReleaseTest}).
 */
public final class DurableSegmentHandOff implements Consumer<Segment> {
    /** Set once, before the sync thread starts (whose start publishes it). */
    private SegmentLifecycle lifecycle;

    public void deliverTo(SegmentLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    @Override
    public void accept(Segment segment) {
        lifecycle.segmentDurable(segment);
    }
}
