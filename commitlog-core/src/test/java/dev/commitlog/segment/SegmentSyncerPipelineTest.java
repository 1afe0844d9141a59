package dev.commitlog.segment;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.metrics.MetricsRecorder;
import dev.commitlog.record.FrameChecksum;
import dev.commitlog.record.RecordDescriptor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The flush pipeline's ordering rules, driven step by step: flushes are claimed over consecutive
 * ranges, a later flush that finishes first is not published before an earlier one, the depth
 * bounds what is outstanding, only one outstanding flush rewrites the header, and a segment is left
 * only once all its flushes are published.
 */
class SegmentSyncerPipelineTest {
    private static final int SIZE = 64 * 1024;
    private static final int PAYLOAD = 100;
    private static final int FRAME = RecordDescriptor.alignedFrameLength(PAYLOAD);

    private final List<Segment> durableSegments = new ArrayList<>();
    private final RecordingSegmentFile file = new RecordingSegmentFile(SIZE);
    private final Segment segment = new Segment(1, 1000, file, SegmentDescriptor.HEADER_LENGTH);
    private final SegmentSyncer syncer = new SegmentSyncer(segment, SegmentDescriptor.HEADER_LENGTH, new MetricsRecorder(),
            durableSegments::add);
    private final FrameChecksum checksum = new FrameChecksum();

    {
        syncer.gateOverlap(false); // these tests drive overlap by hand; OverlapTrialsTest covers the trials
    }

    private long append(Segment target) {
        long offset = target.claim(FRAME);
        target.publish(offset, RecordDescriptor.frameLength(PAYLOAD), 0);
        return target.basePosition() + offset + FRAME;
    }

    @Test
    void aLaterFlushThatFinishesFirstWaitsForTheEarlierOne() throws Exception {
        long start = syncer.durablePosition();
        long firstEnd = append(segment);
        FlushTicket first = syncer.claimFlush(2);
        long secondEnd = append(segment);
        append(segment);
        FlushTicket second = syncer.claimFlush(2);
        assertNotNull(first);
        assertNotNull(second);
        assertEquals(first.to, second.from, "consecutive ranges");
        assertNotEquals(first.lane, second.lane, "outstanding flushes use different lanes");
        assertEquals(secondEnd + FRAME, syncer.claimedPosition());

        syncer.performFlush(second);
        syncer.completed(second);
        assertFalse(syncer.hasCompletedUnpublished(), "the oldest outstanding flush is not done");
        assertFalse(syncer.publishCompleted(), "published before the earlier flush finished");
        assertEquals(start, syncer.durablePosition());

        syncer.performFlush(first);
        syncer.completed(first);
        assertTrue(syncer.hasCompletedUnpublished());
        assertTrue(syncer.publishCompleted());
        assertEquals(secondEnd + FRAME, syncer.durablePosition(), "both published, in order");
        assertEquals(0, syncer.outstanding());
        assertEquals(firstEnd - segment.basePosition(), first.to, "the first flush covers the first record only");
    }

    @Test
    void aFlushStartsBesideARunningOneOnlyOnceItIsNoSmaller() throws Exception {
        syncer.useOverlapTrials(OverlapTrialsTest.overlapChosen());
        append(segment);
        append(segment);
        append(segment);
        FlushTicket first = syncer.claimFlush(2);
        assertEquals(3, first.records);
        append(segment);
        append(segment);
        assertNull(syncer.claimFlush(2), "two records may not split from the group of three being flushed");
        append(segment);
        FlushTicket second = syncer.claimFlush(2);
        assertNotNull(second);
        assertEquals(3, second.records);
        assertEquals(first.to, second.from);
        syncer.performFlush(first);
        syncer.completed(first);
        syncer.performFlush(second);
        syncer.completed(second);
        assertTrue(syncer.publishCompleted());
        assertEquals(0, syncer.outstanding());
    }

    /**
     * What Adaptive's gather waits for: at publication it counts the records that arrived while
     * the flush ran, so that it can tell them from the ones the flush released coming back.
     */
    @Test
    void publicationCountsTheRecordsThatArrivedDuringTheFlush() throws Exception {
        append(segment);
        FlushTicket flush = syncer.claimFlush(1);
        append(segment);
        append(segment);
        syncer.performFlush(flush);
        syncer.completed(flush);
        assertTrue(syncer.publishCompleted());
        assertEquals(1, syncer.lastFlushRecords());
        assertEquals(2, syncer.recordsWhenPublished(), "the two records that arrived during the flush");
        append(segment); // the appender the flush released comes back
        assertEquals(3, syncer.publishedRecords());
        assertEquals(2, syncer.recordsWhenPublished(), "fixed at publication");
    }

    @Test
    void theDepthBoundsOutstandingFlushes() throws Exception {
        append(segment);
        FlushTicket first = syncer.claimFlush(1);
        append(segment);
        assertNull(syncer.claimFlush(1), "depth 1: a second flush while one is outstanding");
        FlushTicket second = syncer.claimFlush(2);
        assertNotNull(second);
        append(segment);
        assertNull(syncer.claimFlush(2), "depth 2: a third flush");
        syncer.abandoned(second);
        assertTrue(syncer.flushAbandoned());
        syncer.performFlush(first);
        syncer.completed(first);
        assertTrue(syncer.publishCompleted());
        assertFalse(syncer.publishCompleted(), "an abandoned flush is never published");
        assertEquals(first.segment.basePosition() + first.to, syncer.durablePosition());
    }

    @Test
    void onlyOneOutstandingFlushRewritesTheHeader() throws Exception {
        append(segment);
        FlushTicket first = syncer.claimFlush(3);
        append(segment);
        FlushTicket second = syncer.claimFlush(3);
        assertEquals(SegmentDescriptor.HEADER_LENGTH, first.headerLength, "the first rewrites the durable mark");
        assertEquals(0, second.headerLength, "the header is in flight with the first");
        for (FlushTicket ticket : List.of(first, second)) {
            syncer.performFlush(ticket);
            syncer.completed(ticket);
        }
        syncer.publishCompleted();
        append(segment);
        FlushTicket third = syncer.claimFlush(3);
        assertEquals(SegmentDescriptor.HEADER_LENGTH, third.headerLength, "the header is free again once the first is published");
        assertEquals(file.flushes.get(1)[1], first.to);
    }

    @Test
    void aSegmentIsLeftOnlyWhenAllItsFlushesArePublished() throws Exception {
        RecordingSegmentFile nextFile = new RecordingSegmentFile(SIZE);
        Segment next = new Segment(2, segment.endPosition(), nextFile, SegmentDescriptor.HEADER_LENGTH);
        append(segment);
        FlushTicket first = syncer.claimFlush(2);
        long marker = segment.claim(SIZE); // overflows: this claimant seals the segment
        segment.writeEndMarker(marker, checksum);
        segment.next(next);
        FlushTicket last = syncer.claimFlush(2);
        assertEquals(SIZE, last.to, "the end marker's flush runs to the end of the segment");
        append(next);
        syncer.performFlush(last);
        syncer.completed(last);
        assertNull(syncer.claimFlush(3), "crossed into the next segment while a flush of this one was outstanding");
        assertTrue(durableSegments.isEmpty());
        syncer.performFlush(first);
        syncer.completed(first);
        syncer.publishCompleted();
        assertEquals(segment.endPosition(), syncer.durablePosition());
        FlushTicket inNext = syncer.claimFlush(2);
        assertNotNull(inNext);
        assertSame(next, inNext.segment);
        assertEquals(List.of(segment), durableSegments);
    }

    /**
     * A flush that runs alone uses lane 0, the file's own channel, however many came before it (a
     * lane is a file descriptor of its own); an overlapping one takes the lowest lane free.
     */
    @Test
    void aFlushTakesTheLowestFreeLane() throws Exception {
        for (int i = 0; i < 5; i++) {
            append(segment);
            FlushTicket alone = syncer.claimFlush(4);
            assertEquals(0, alone.lane, "flush " + i + " ran alone");
            syncer.performFlush(alone);
            syncer.completed(alone);
            assertTrue(syncer.publishCompleted());
        }
        append(segment);
        FlushTicket first = syncer.claimFlush(4);
        append(segment);
        FlushTicket second = syncer.claimFlush(4);
        assertEquals(0, first.lane);
        assertEquals(1, second.lane);
        syncer.performFlush(first);
        syncer.completed(first);
        assertTrue(syncer.publishCompleted());
        append(segment);
        FlushTicket third = syncer.claimFlush(4);
        assertEquals(0, third.lane, "lane 0 is free again once the first flush is published, while lane 1 runs");
        append(segment);
        assertEquals(2, syncer.claimFlush(4).lane);
    }
}
