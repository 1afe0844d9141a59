package dev.commitlog.segment;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.format.FrameChecksum;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.instrument.MetricsRecorder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SegmentSyncer#appendedPosition()}, the target of a periodic flush pass: the end of every
 * claim, published or not, in the last segment linked after the one being synced; flushing until
 * the durable position reaches it crosses segments in order and ends each at its marker.
 */
class AppendedPositionTest {
    private static final int SIZE = SegmentDescriptor.MIN_SEGMENT_SIZE;
    private static final int PAYLOAD = 1000;
    private static final int FRAME = RecordDescriptor.alignedFrameLength(PAYLOAD);

    private final List<Segment> segments = new ArrayList<>(List.of(newSegment(0, 0)));
    private final List<Segment> durable = new ArrayList<>();
    private final SegmentSyncer syncer = new SegmentSyncer(segments.get(0), SegmentDescriptor.SEGMENT_HEADER_LENGTH, new MetricsRecorder(),
            durable::add);

    @Test
    void aFreshLogHasAppendedNothingPastItsDurablePosition() {
        assertTrue(syncer.appendedPosition() <= syncer.durablePosition());
    }

    @Test
    void claimsCountPublishedOrNot() {
        Segment first = segments.get(0);
        long published = first.claim(FRAME);
        first.publish(published, RecordDescriptor.frameLength(PAYLOAD), 0);
        long unpublished = first.claim(FRAME);
        assertEquals(first.basePosition() + unpublished + FRAME, syncer.appendedPosition());
    }

    @Test
    void aPassToTheAppendedPositionCrossesSegmentsInOrderEndingEachAtItsMarker() throws IOException {
        for (int i = 0; i < 3; i++) {
            fill(last());
            roll();
        }
        append(last());
        long target = syncer.appendedPosition();
        assertEquals(last().basePosition() + SegmentDescriptor.SEGMENT_HEADER_LENGTH + FRAME, target);

        List<Long> durablePositions = new ArrayList<>();
        while (syncer.durablePosition() < target && syncer.claimFlush()) {
            syncer.writeClaimed();
            syncer.publishClaimed();
            durablePositions.add(syncer.durablePosition());
        }
        assertEquals(target, syncer.durablePosition(), "the pass reached its target: " + durablePositions);
        assertEquals(List.of(segments.get(0).endPosition(), segments.get(1).endPosition(), segments.get(2).endPosition(), target),
                durablePositions, "one flush per segment, each to its end marker, in order");
        assertEquals(segments.subList(0, 3), durable, "each full segment is left once flushed to its end");
    }

    @Test
    void aSegmentJustLinkedWithNothingClaimedInItAddsNothing() throws IOException {
        fill(last());
        roll();
        assertEquals(segments.get(0).endPosition(), syncer.appendedPosition(), "the durable position enters a segment only with a record");
        while (syncer.claimFlush()) {
            syncer.writeClaimed();
            syncer.publishClaimed();
        }
        assertEquals(syncer.appendedPosition(), syncer.durablePosition(), "flushed to the marker, the pass is complete");
    }

    private Segment last() {
        return segments.get(segments.size() - 1);
    }

    private static Segment newSegment(long id, long base) {
        return new Segment(id, base, new RecordingSegmentFile(SIZE), SegmentDescriptor.SEGMENT_HEADER_LENGTH);
    }

    private static void append(Segment segment) {
        long offset = segment.claim(FRAME);
        segment.publish(offset, RecordDescriptor.frameLength(PAYLOAD), 0);
    }

    /** Appends until a claim overflows the segment; that claimant writes the end marker, as the writer's does. */
    private static void fill(Segment segment) {
        for (;;) {
            long offset = segment.claim(FRAME);
            if (offset + FRAME > segment.recordLimit()) {
                segment.writeEndMarker(offset, new FrameChecksum());
                return;
            }
            segment.publish(offset, RecordDescriptor.frameLength(PAYLOAD), 0);
        }
    }

    private void roll() {
        Segment full = last();
        Segment next = newSegment(full.id() + 1, full.endPosition());
        full.next(next);
        segments.add(next);
    }
}
