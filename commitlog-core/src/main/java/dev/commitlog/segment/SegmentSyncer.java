package dev.commitlog.segment;

import static dev.commitlog.record.RecordDescriptor.END_OF_SEGMENT;
import static dev.commitlog.record.RecordDescriptor.alignedLength;

import com.lmax.disruptor.Sequence;
import dev.commitlog.metrics.MetricsRecorder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import java.util.function.Consumer;

/**
 * Finds how far the log is published and makes it durable, segment by segment, in order; owns the
 * durable position.
 *
 * <p>Assumptions and guarantees: only the holder of the sync service's flush role (the sync thread,
 * or an appender flushing inline) calls {@link #flushOnce}, {@link #hasUnflushedData} and
 * {@link #publishedRecords}; any thread may read {@link #durablePosition()}. Frames are examined
 * in position order and the scan stops at the first one whose length is still 0, so the durable
 * position only ever covers a contiguous prefix of published frames: an appender is never told
 * its record is durable while an earlier record could still be lost. A segment is left only after
 * its end marker has been flushed, so a later segment's data never becomes durable before an
 * earlier segment's. The durable position is published with a volatile store after the flush
 * returns, never before, and never moves after a failed flush.
 */
public final class SegmentSyncer {
    private final Sequence durable;
    private final MetricsRecorder metrics;
    private final Consumer<Segment> onSegmentDurable;
    private Segment syncing;
    /** The next frame to examine in {@link #syncing}. */
    private long scanOffset;
    /** {@link #syncing} is durable up to here. */
    private long syncedOffset;
    /** The end marker of {@link #syncing} has been seen. */
    private boolean endSeen;
    private int recordsSinceFlush;
    private int lastFlushRecords;
    /** Reused for the durable mark's checksum, so that a flush (run by an appender, inline) allocates nothing. */
    private final ByteBuffer markScratch = ByteBuffer.allocate(16);
    private final CRC32C markCrc = new CRC32C();
    private long lastFlushNanos;

    /**
     * @param first            the segment appends go to first
     * @param firstFreeOffset  where the first unsynced frame will be in it (everything before is durable)
     * @param onSegmentDurable told when a segment is wholly durable and no writer will touch it again
     */
    public SegmentSyncer(Segment first, long firstFreeOffset, MetricsRecorder metrics, Consumer<Segment> onSegmentDurable) {
        this.syncing = first;
        this.scanOffset = firstFreeOffset;
        this.syncedOffset = firstFreeOffset;
        this.durable = new Sequence(first.basePosition() + firstFreeOffset);
        this.metrics = metrics;
        this.onSegmentDurable = onSegmentDurable;
    }

    /** Everything below this log position is durable. */
    public long durablePosition() {
        return durable.get();
    }

    /** The durable position as a sequence, for waiters that spin on it. */
    public Sequence durableSequence() {
        return durable;
    }

    /** Whether a flush now would make anything new durable. Sync thread only. */
    public boolean hasUnflushedData() {
        if (syncedOffset < (endSeen ? syncing.size() : scanOffset)) {
            return true; // scanned but not flushed yet (or a flush of it failed for want of space)
        }
        return endSeen ? syncing.next() != null : syncing.lengthWordAt(scanOffset) != 0;
    }

    /**
     * Scans newly published frames and flushes them; crosses into following segments when the
     * current one is complete. Returns whether the durable position moved.
     *
     * @throws IOException if a flush failed; the durable position has not moved past what earlier
     *                     flushes covered, and the caller must stop flushing (see SegmentFile),
     *                     unless it is a {@link dev.commitlog.io.NoSpaceLeftException}: then
     *                     calling this again retries the same flush
     */
    public boolean flushOnce() throws IOException {
        boolean moved = false;
        for (;;) {
            // Leave a segment only once it is flushed to its end: a flush of its end marker that
            // ran out of space is retried here, never skipped for the next segment's; and
            // publishedRecords (Adaptive's gather) may have seen the end marker before any flush.
            if (endSeen && syncedOffset == syncing.size()) {
                Segment next = syncing.next();
                if (next == null) {
                    return moved; // the writer is still rolling over; its next segment comes later
                }
                Segment done = syncing;
                syncing = next;
                scanOffset = SegmentDescriptor.HEADER_LENGTH;
                syncedOffset = SegmentDescriptor.HEADER_LENGTH;
                endSeen = false;
                onSegmentDurable.accept(done);
            }
            scan();
            long flushTo = endSeen ? syncing.size() : scanOffset;
            if (flushTo > syncedOffset) {
                flush(flushTo);
                moved = true;
            }
            if (!endSeen) {
                return moved;
            }
        }
    }

    private void scan() {
        int records = 0;
        for (;;) {
            int length = syncing.lengthWordAt(scanOffset);
            if (length == 0) {
                break; // not published yet: the contiguous prefix ends here
            }
            if (length == END_OF_SEGMENT) {
                endSeen = true;
                break;
            }
            if (length > 0) {
                records++;
                scanOffset += alignedLength(length);
            } else {
                scanOffset += -length; // an aborted claim: its length word is minus its aligned size
            }
        }
        recordsSinceFlush += records;
    }

    private void flush(long flushTo) throws IOException {
        long durableBefore = durable.get();
        if (durableBefore > 0) {
            syncing.writeDurableMark(durableBefore, SegmentHeader.durableMarkCrc(syncing.id(), durableBefore, markScratch, markCrc));
        }
        long started = System.nanoTime();
        syncing.file().flushHeaderAndRange(SegmentDescriptor.HEADER_LENGTH, (int) syncedOffset, (int) flushTo);
        long elapsed = System.nanoTime() - started;
        metrics.flushCompleted(recordsSinceFlush, flushTo - syncedOffset, elapsed);
        lastFlushRecords = recordsSinceFlush;
        lastFlushNanos = elapsed;
        recordsSinceFlush = 0;
        syncedOffset = flushTo;
        durable.setVolatile(syncing.basePosition() + flushTo); // volatile store: publishes durability before waiters are drained
    }

    /**
     * Records published in a contiguous prefix since the last flush, scanning what is new. Counts
     * only the segment being flushed: enough for deciding whether to wait for more.
     */
    public int publishedRecords() {
        if (!endSeen) {
            scan();
        }
        return recordsSinceFlush;
    }

    /** Records the last flush made durable. */
    public int lastFlushRecords() {
        return lastFlushRecords;
    }

    /** How long the last flush's write and fdatasync took. */
    public long lastFlushNanos() {
        return lastFlushNanos;
    }

    /** The segment the sync thread is working on. */
    public Segment syncingSegment() {
        return syncing;
    }
}
