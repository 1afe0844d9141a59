package dev.commitlog.segment;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.format.FrameChecksum;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.instrument.MetricsRecorder;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The durable mark is rewritten lazily: a flush that writes the header's 4 KiB block anyway always
 * carries it, a flush past that block carries it at most once per mark interval, and whatever mark
 * is written is a durable position from before the flush that carries it (a lower bound, which is
 * what makes skipping rewrites crash-safe; SimulatedPowerLossTest checks recovery over it). On a
 * clean close the syncer writes the exact durable position as the mark, once, in a header-only
 * flush (CleanCloseDurableMarkTest checks what recovery makes of it).
 */
class DurableMarkIntervalTest {
    private static final int SIZE = 256 * 1024;
    private static final int PAYLOAD = 100;
    private static final int FRAME = RecordDescriptor.alignedFrameLength(PAYLOAD);
    private static final int HEADER_PAGE = SegmentSyncer.HEADER_PAGE;

    private final RecordingSegmentFile file = new RecordingSegmentFile(SIZE);
    private final Segment segment = new Segment(1, 1000, file, SegmentDescriptor.SEGMENT_HEADER_LENGTH);
    private final SegmentSyncer syncer = new SegmentSyncer(segment, SegmentDescriptor.SEGMENT_HEADER_LENGTH, new MetricsRecorder(), s -> { });

    @Test
    void withoutAnIntervalEveryFlushCarriesTheMark() throws IOException {
        syncer.markInterval(0);
        flushOneRecordEachUntil(3 * HEADER_PAGE);
        assertTrue(file.flushes.size() > 50, "flushes: " + file.flushes.size());
        for (int[] flush : file.flushes) {
            assertEquals(SegmentDescriptor.SEGMENT_HEADER_LENGTH, flush[0], () -> "flush from " + flush[1]);
        }
    }

    @Test
    void pastTheHeaderPageALongIntervalSkipsTheMarkButTheHeaderPageAlwaysCarriesIt() throws IOException {
        syncer.markInterval(TimeUnit.HOURS.toNanos(1));
        flushOneRecordEachUntil(3 * HEADER_PAGE);
        int pastPage = 0;
        int pastPageWithMark = 0;
        for (int[] flush : file.flushes) {
            if (flush[1] < HEADER_PAGE) {
                assertEquals(SegmentDescriptor.SEGMENT_HEADER_LENGTH, flush[0], () -> "flush from " + flush[1] + " writes the header's block anyway");
            } else {
                pastPage++;
                pastPageWithMark += flush[0] > 0 ? 1 : 0;
            }
        }
        assertTrue(pastPage > 50, "flushes past the header's page: " + pastPage);
        assertEquals(0, pastPageWithMark, "within the hour after the last mark, no flush past the first page carries one");
        long mark = markInHeader();
        assertTrue(mark > segment.basePosition() && mark < segment.basePosition() + HEADER_PAGE,
                "the mark stays where the last flush in the first page left it: " + mark);
    }

    @Test
    void aFlushAfterTheIntervalCarriesTheMarkOfThePositionDurableBeforeIt() throws IOException {
        long interval = TimeUnit.MILLISECONDS.toNanos(2);
        syncer.markInterval(interval);
        flushOneRecordEachUntil(2 * HEADER_PAGE);
        long durableBefore = syncer.durablePosition();
        long start = System.nanoTime();
        while (System.nanoTime() - start <= interval) {
            LockSupport.parkNanos(interval);
        }
        append();
        assertTrue(syncer.claimFlush());
        assertEquals(durableBefore, markInHeader(), "the mark is the position durable before this flush, never past it");
        finish();
        assertEquals(SegmentDescriptor.SEGMENT_HEADER_LENGTH, lastFlushHeaderLength(), "the interval passed: this flush carries the mark");
        assertTrue(markInHeader() < syncer.durablePosition());
    }

    @Test
    void theExactMarkIsTheDurablePositionWrittenAsAHeaderOnlyFlushOnce() throws IOException {
        syncer.markInterval(TimeUnit.HOURS.toNanos(1));
        flushOneRecordEachUntil(3 * HEADER_PAGE);
        long lagging = markInHeader();
        assertTrue(lagging < syncer.durablePosition(), "past the first page the mark lags: " + lagging);
        int flushes = file.flushes.size();

        assertTrue(syncer.writeExactMark());
        assertEquals(syncer.durablePosition(), markInHeader(), "the exact mark is the durable position");
        assertEquals(SegmentHeader.durableMarkCrc(segment.id(), syncer.durablePosition()), markCrcInHeader());
        assertEquals(flushes + 1, file.flushes.size(), "one flush");
        int header = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        assertArrayEquals(new int[] {header, header, header}, file.flushes.get(flushes), "the header alone");

        assertFalse(syncer.writeExactMark(), "the header holds the exact mark already");
        assertEquals(flushes + 1, file.flushes.size(), "no second header flush");
    }

    @Test
    void theExactMarkIsNotWrittenWhenNothingWasFlushedNorWhileAFlushIsOutstanding() throws IOException {
        syncer.markInterval(TimeUnit.HOURS.toNanos(1));
        assertFalse(syncer.writeExactMark(), "nothing was flushed since the log opened");
        assertEquals(0, markInHeader());
        assertTrue(file.flushes.isEmpty());

        append();
        assertTrue(syncer.claimFlush());
        assertThrows(IllegalStateException.class, syncer::writeExactMark, "a flush is outstanding");
        syncer.writeClaimed(); // then it failed, say: a failed flush is never published, and the mark is never written after it
        assertThrows(IllegalStateException.class, syncer::writeExactMark, "a failed flush is outstanding for ever");
        assertThrows(IllegalStateException.class, syncer::claimFlush, "nothing is claimed after a failed flush");
    }

    @Test
    void afterTheLastSegmentEndedTheExactMarkIsTheNextSegmentsBase() throws IOException {
        RecordingSegmentFile nextFile = new RecordingSegmentFile(SIZE);
        Segment next = new Segment(2, segment.endPosition(), nextFile, SegmentDescriptor.SEGMENT_HEADER_LENGTH);
        append();
        long marker = segment.claim(SIZE); // overflows: this claimant seals the segment
        segment.writeEndMarker(marker, new FrameChecksum());
        segment.next(next);
        assertTrue(syncer.claimFlush());
        finish();
        assertEquals(segment.endPosition(), syncer.durablePosition());
        assertFalse(syncer.claimFlush(), "moves to the next segment, which holds nothing yet");
        assertSame(next, syncer.syncingSegment());

        assertTrue(syncer.writeExactMark());
        long mark = nextFile.buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN).getLong(SegmentDescriptor.DURABLE_MARK_OFFSET);
        assertEquals(next.basePosition(), mark, "the ended segment's records all lie below the next segment's mark");
        int header = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        assertArrayEquals(new int[] {header, header, header}, nextFile.flushes.get(nextFile.flushes.size() - 1));
    }

    /** Appends and flushes one record at a time until the segment is filled to {@code offset}. */
    private void flushOneRecordEachUntil(int offset) throws IOException {
        while (syncer.durablePosition() - segment.basePosition() < offset) {
            append();
            long durableBefore = syncer.durablePosition();
            long markBefore = markInHeader();
            assertTrue(syncer.claimFlush());
            boolean carriesMark = markInHeader() != markBefore;
            finish();
            assertEquals(carriesMark, lastFlushHeaderLength() > 0, "a flush writes the header exactly when it rewrote the mark");
            if (carriesMark) {
                assertEquals(durableBefore, markInHeader(), "a mark is the position durable before its flush");
            }
        }
    }

    private void append() {
        long offset = segment.claim(FRAME);
        segment.publish(offset, RecordDescriptor.frameLength(PAYLOAD), 0);
    }

    private void finish() throws IOException {
        syncer.writeClaimed();
        syncer.publishClaimed();
    }

    private int lastFlushHeaderLength() {
        return file.flushes.get(file.flushes.size() - 1)[0];
    }

    private long markInHeader() {
        return file.buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN).getLong(SegmentDescriptor.DURABLE_MARK_OFFSET);
    }

    private int markCrcInHeader() {
        return file.buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(SegmentDescriptor.DURABLE_MARK_CRC_OFFSET);
    }
}
