package dev.commitlog.segment;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.metrics.MetricsRecorder;
import dev.commitlog.record.RecordDescriptor;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The durable mark is rewritten lazily: a flush that writes the header's 4 KiB block anyway always
 * carries it, a flush past that block carries it at most once per mark interval, and whatever mark
 * is written is a durable position from before the flush that carries it (a lower bound, which is
 * what makes skipping rewrites crash-safe; SimulatedPowerLossTest checks recovery over it).
 */
class DurableMarkIntervalTest {
    private static final int SIZE = 256 * 1024;
    private static final int PAYLOAD = 100;
    private static final int FRAME = RecordDescriptor.alignedFrameLength(PAYLOAD);
    private static final int HEADER_PAGE = SegmentSyncer.HEADER_PAGE;

    private final RecordingSegmentFile file = new RecordingSegmentFile(SIZE);
    private final Segment segment = new Segment(1, 1000, file, SegmentDescriptor.HEADER_LENGTH);
    private final SegmentSyncer syncer = new SegmentSyncer(segment, SegmentDescriptor.HEADER_LENGTH, new MetricsRecorder(), s -> { });

    @Test
    void withoutAnIntervalEveryFlushCarriesTheMark() throws IOException {
        syncer.markInterval(0);
        flushOneRecordEachUntil(3 * HEADER_PAGE);
        assertTrue(file.flushes.size() > 50, "flushes: " + file.flushes.size());
        for (int[] flush : file.flushes) {
            assertEquals(SegmentDescriptor.HEADER_LENGTH, flush[0], () -> "flush from " + flush[1]);
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
                assertEquals(SegmentDescriptor.HEADER_LENGTH, flush[0], () -> "flush from " + flush[1] + " writes the header's block anyway");
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
        FlushTicket ticket = syncer.claimFlush(1);
        assertEquals(SegmentDescriptor.HEADER_LENGTH, ticket.headerLength, "the interval passed: this flush carries the mark");
        assertEquals(durableBefore, markInHeader(), "the mark is the position durable before this flush, never past it");
        finish(ticket);
        assertTrue(markInHeader() < syncer.durablePosition());
    }

    /** Appends and flushes one record at a time until the segment is filled to {@code offset}. */
    private void flushOneRecordEachUntil(int offset) throws IOException {
        while (syncer.durablePosition() - segment.basePosition() < offset) {
            append();
            long durableBefore = syncer.durablePosition();
            FlushTicket ticket = syncer.claimFlush(1);
            if (ticket.headerLength > 0) {
                assertEquals(durableBefore, markInHeader(), "a mark is the position durable before its flush");
            }
            finish(ticket);
        }
    }

    private void append() {
        long offset = segment.claim(FRAME);
        segment.publish(offset, RecordDescriptor.frameLength(PAYLOAD), 0);
    }

    private void finish(FlushTicket ticket) throws IOException {
        syncer.performFlush(ticket);
        syncer.completed(ticket);
        assertTrue(syncer.publishCompleted());
    }

    private long markInHeader() {
        return file.buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN).getLong(SegmentDescriptor.DURABLE_MARK_OFFSET);
    }
}
