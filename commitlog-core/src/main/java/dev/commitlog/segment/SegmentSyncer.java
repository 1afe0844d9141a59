package dev.commitlog.segment;

import static dev.commitlog.format.RecordDescriptor.END_OF_SEGMENT;
import static dev.commitlog.format.RecordDescriptor.alignedLength;

import com.lmax.disruptor.Sequence;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SectionBudget;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.instrument.MetricsRecorder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * Finds how far the log is published and makes it durable, segment by segment, one flush at a
 * time; owns the durable position. A flush is three steps: {@link #claimFlush} (what is published
 * past the last flush, within one segment), {@link #writeClaimed} (write and fdatasync),
 * {@link #publishClaimed} (move the durable position). A caller that must cover more than one
 * segment (Periodic's flush pass) repeats them until the durable position reaches the
 * {@link #appendedPosition} it read first.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>Only the holder of the sync engine's flush role calls the methods marked "role holder",
 *       the three steps above included, so exactly one flush is claimed, written or published at
 *       a time; any thread may read the durable and claimed positions.</li>
 *   <li>Frames are claimed in position order and the scan stops at the first one whose length is
 *       still 0, so every flush covers a contiguous range just past the previous one's.</li>
 *   <li>The durable position moves only when a flush's sync has returned, to that flush's end, with
 *       a volatile store: an appender is never told its record is durable before it is. After a
 *       failed write the claimed flush is never published, and nothing after it is claimed.</li>
 *   <li>A segment is left only once its last flush, end marker included, is published, so a later
 *       segment's data never becomes durable before an earlier segment's and recovery sees at most
 *       one torn tail.</li>
 *   <li>The header's durable mark is a lower bound, so skipping a rewrite is always safe. Past the
 *       segment's first page a flush rewrites it at most once per mark interval, since the header's
 *       block costs a second block per fdatasync. A clean close makes it exact
 *       ({@link #writeExactMark}).</li>
 * </ul>
 */
public final class SegmentSyncer {
    /** A flush that starts below this offset writes the header's page anyway: the mark rides free. */
    static final int HEADER_PAGE = Segment.PAGE_SIZE;

    private final Sequence durable;
    /** The durable position when the log opened: flushes since have moved it past this. */
    private final long openedAt;
    private final MetricsRecorder metrics;
    private final Consumer<Segment> onSegmentDurable;
    /** Volatile for readers outside the role (retention asks which segment is being synced). */
    private volatile Segment syncing;
    /** The next frame to examine in {@link #syncing}. */
    private long scanOffset;
    /** Flushes of {@link #syncing} have been claimed up to here. */
    private long claimedOffset;
    /** The end marker of {@link #syncing} has been seen. */
    private boolean endSeen;
    /** Records scanned but not yet in a claimed flush. */
    private int recordsSinceClaim;
    private int lastFlushRecords;
    /** {@link #publishedRecords} when a flush was last published: who arrived during that flush. */
    private int recordsWhenPublished;
    private long lastFlushNanos;
    /** Flushes past the header's page rewrite the mark at most this often (0: every flush). */
    private long markIntervalNanos;
    /** When a claimed flush last carried the mark. */
    private long lastMarkNanos;
    /** The log position flushes are claimed up to; read by appenders deciding whether to ask for a flush. */
    private volatile long claimedPosition;
    /** Reused for the durable mark's checksum, so that a flush (run by an appender, inline) allocates nothing. */
    private final ByteBuffer markScratch = ByteBuffer.allocate(16);
    private final CRC32C markCrc = new CRC32C();

    // The claimed flush, reused so that a flush allocates nothing; claimed until published.
    private boolean claimed;
    private Segment flushSegment;
    private int flushFrom;
    private int flushTo;
    /** Where the claimed flush stops writing: {@link #writeEnd}, or, sectioned, the end marker's end. */
    private int flushWriteEnd;
    private int flushRecords;
    /** The header's length when this flush rewrites the durable mark, else 0. */
    private int flushHeaderLength;
    private long flushElapsedNanos;

    /**
     * @param first            the segment appends go to first
     * @param firstFreeOffset  where the first unsynced frame will be in it (everything before is durable)
     * @param onSegmentDurable told when a segment is wholly durable and no writer will touch it again
     */
    public SegmentSyncer(Segment first, long firstFreeOffset, MetricsRecorder metrics, Consumer<Segment> onSegmentDurable) {
        this.syncing = first;
        this.scanOffset = firstFreeOffset;
        this.claimedOffset = firstFreeOffset;
        this.openedAt = first.basePosition() + firstFreeOffset;
        this.durable = new Sequence(openedAt);
        this.claimedPosition = openedAt;
        this.metrics = metrics;
        this.onSegmentDurable = onSegmentDurable;
    }

    /** Everything below this log position is durable. Any thread. */
    public long durablePosition() {
        return durable.get();
    }

    /** The durable position as a sequence, for waiters that watch it. */
    public Sequence durableSequence() {
        return durable;
    }

    /**
     * Flushes are claimed (running or done) up to this log position: a record below it will be
     * durable without anyone asking for another flush, unless a flush fails. Any thread.
     */
    public long claimedPosition() {
        return claimedPosition;
    }

    /**
     * The log position just past every frame claimed so far, published or not: the end of the
     * claims in the last segment the writer linked after the one being synced (its end, marker
     * included, once a claim overflowed it). Flushes that reach it have made everything appended
     * before this call durable: what a periodic flush pass aims at. Any thread (the segments are
     * followed through volatile links).
     */
    public long appendedPosition() {
        Segment last = syncing;
        for (Segment next = last.next(); next != null; next = last.next()) {
            last = next;
        }
        long tail = last.tail();
        if (tail > last.recordLimit()) {
            return last.endPosition();
        }
        // A segment just linked, nothing claimed in it yet, adds nothing: the durable position
        // enters a segment only with its first record, and stays at the end of the one before.
        return tail <= SegmentDescriptor.SEGMENT_HEADER_LENGTH ? last.basePosition() : last.basePosition() + tail;
    }

    /** Whether a flush now would make anything new durable, or a claimed one is unpublished. Role holder. */
    public boolean hasUnflushedData() {
        if (claimed || claimedOffset < (endSeen ? syncing.size() : scanOffset)) {
            return true;
        }
        return endSeen ? syncing.next() != null : syncing.lengthWordAt(scanOffset) != 0;
    }

    /**
     * Claims the next flush: everything published past the last one, up to the end of its segment.
     * Returns false when there is nothing new, or when the segment is flushed to its end and the
     * writer has not rolled over yet. Role holder; the caller then runs {@link #writeClaimed} and,
     * if it returned, {@link #publishClaimed}.
     *
     * @throws IllegalStateException if a claimed flush is not published (it failed: nothing after it
     *                               may be flushed)
     */
    public boolean claimFlush() {
        if (claimed) {
            throw new IllegalStateException("flush of " + flushSegment + " [" + flushFrom + ", " + flushTo
                    + ") was claimed and never published: nothing after it may be flushed");
        }
        if (endSeen && claimedOffset == syncing.size()) {
            Segment next = syncing.next();
            if (next == null) {
                return false; // the writer is still rolling over
            }
            Segment done = syncing;
            syncing = next;
            scanOffset = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
            claimedOffset = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
            endSeen = false;
            onSegmentDurable.accept(done);
        }
        scan();
        if (syncing.sectioned() && !endSeen && syncing.sealed()) {
            // Sectioned and sealed: the room left holds the rest as one section, so nothing is
            // flushed until the end marker is published (the claims before it are being copied).
            return false;
        }
        long flushTo = endSeen ? syncing.size() : scanOffset;
        if (flushTo <= claimedOffset) {
            return false;
        }
        this.flushSegment = syncing;
        this.flushFrom = (int) claimedOffset;
        this.flushTo = (int) flushTo;
        this.flushRecords = recordsSinceClaim;
        this.flushHeaderLength = 0;
        long durableNow = durable.get();
        if (durableNow > 0 && markDue(flushFrom)) {
            syncing.writeDurableMark(durableNow, markChecksum(syncing, durableNow));
            flushHeaderLength = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        }
        // A sectioned file gets the range up to the end marker's end, not the unused rest of the segment.
        this.flushWriteEnd = syncing.sectioned() ? (endSeen ? (int) scanOffset + RecordDescriptor.END_MARKER_LENGTH : this.flushTo)
                : writeEnd(syncing, this.flushTo);
        if (syncing.sectioned() && !endSeen) {
            long roomAfter = syncing.file().sectionRoom() - (flushWriteEnd - flushFrom) - SectionBudget.SECTION_OVERHEAD;
            syncing.budgetAfterFlush(flushTo, roomAfter);
        }
        recordsSinceClaim = 0;
        claimedOffset = flushTo;
        claimedPosition = syncing.basePosition() + flushTo;
        claimed = true;
        return true;
    }

    /** The checksum of {@code position} as {@code segment}'s durable mark; allocates nothing. Role holder. */
    private int markChecksum(Segment segment, long position) {
        return SegmentHeader.durableMarkCrc(segment.id(), position, markScratch, markCrc);
    }

    /**
     * Whether a flush from {@code from} should carry the durable mark: always while it writes the
     * header's page anyway, else once the mark interval has passed since the last one did.
     */
    private boolean markDue(int from) {
        if (markIntervalNanos == 0) {
            return true;
        }
        long now = System.nanoTime();
        if (from >= HEADER_PAGE && now - lastMarkNanos < markIntervalNanos) {
            return false;
        }
        lastMarkNanos = now;
        return true;
    }

    /**
     * Writes and syncs the claimed range (and header). Role holder.
     *
     * @throws IOException if the flush failed; the caller must stop flushing (see SegmentFile), unless
     *                     it is a {@link dev.commitlog.io.NoSpaceLeftException}: then calling this
     *                     again retries the same flush
     */
    public void writeClaimed() throws IOException {
        if (!claimed) {
            throw new IllegalStateException("no flush is claimed");
        }
        long started = System.nanoTime();
        flushSegment.file().flushHeaderAndRange(flushHeaderLength, flushFrom, flushWriteEnd);
        flushElapsedNanos = System.nanoTime() - started;
    }

    /**
     * Where a flush up to {@code flushTo} stops writing: in a segment that may hold an earlier
     * life's bytes, 8 bytes further, so the device holds the next frame's length word as the memory
     * does (zero, unless a frame was published there since the claim) and a walk after a crash
     * ends at the durable end cleanly instead of on a stale frame that reads as a torn tail. Those
     * bytes share the range's last block but for one flush in 512, so they cost no device write.
     * Only {@code flushTo} counts as durable.
     */
    private static int writeEnd(Segment segment, int flushTo) {
        return segment.mayHoldStaleBytes() ? Math.min(flushTo + RecordDescriptor.FRAME_HEADER_LENGTH, segment.size()) : flushTo;
    }

    /** The claimed flush's sync returned: moves the durable position to its end. Role holder. */
    public void publishClaimed() {
        if (!claimed) {
            throw new IllegalStateException("no flush is claimed");
        }
        metrics.flushCompleted(flushRecords, flushTo - flushFrom, flushElapsedNanos);
        lastFlushRecords = flushRecords;
        lastFlushNanos = flushElapsedNanos;
        claimed = false;
        durable.setVolatile(flushSegment.basePosition() + flushTo); // volatile store: publishes durability before waiters are woken
        flushSegment = null;
        recordsWhenPublished = publishedRecords();
    }

    /**
     * On a clean close, once the last flush is published and none failed: writes the durable
     * position as the durable mark of the segment being synced and makes the header durable (its
     * write and an fdatasync, through the file's own channel). Recovery then treats damage anywhere
     * below the end of a cleanly closed log as corruption, where the lazily rewritten mark would
     * leave the last flushes looking like a torn tail. The mark stays a lower bound: the position is
     * durable already. Does nothing, and returns false, when the header already holds this mark or
     * when nothing was flushed since the log opened. Role holder.
     *
     * @throws IllegalStateException if a claimed flush is unpublished (it failed)
     * @throws IOException           if the header's write or sync failed; as after any failed
     *                               flush, nothing more may be written
     */
    public boolean writeExactMark() throws IOException {
        if (claimed) {
            throw new IllegalStateException("a claimed flush is unpublished: the exact mark is written after the last one");
        }
        long durableNow = durable.get();
        Segment segment = syncing;
        if (durableNow == openedAt || durableNow < segment.basePosition() || durableNow > segment.endPosition()) {
            return false; // nothing new is durable (the mark of an unchanged log is left as it is); never a mark outside the segment
        }
        // A mark equal to the durable position was written by a claim since the log opened (the
        // file's own mark is at most where it opened), with its CRC: on disk, its flush being published.
        if (segment.durableMarkInMemory() == durableNow) {
            return false;
        }
        segment.syncDurableMark(durableNow, markChecksum(segment, durableNow));
        return true;
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
        recordsSinceClaim += records;
    }

    /**
     * Records published in a contiguous prefix since the last claimed flush, scanning what is new.
     * Counts only the segment being flushed: enough for deciding whether to wait for more. Role holder.
     */
    public int publishedRecords() {
        if (!endSeen) {
            scan();
        }
        return recordsSinceClaim;
    }

    /**
     * How often, at most, a flush past the header's page also rewrites the durable mark (0: every
     * flush, which is also what a syncer does until told). Called by the log with
     * {@code commitlog_durable_mark_interval} before its sync engine starts.
     */
    public void markInterval(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("durable mark interval " + nanos + " ns is negative");
        }
        markIntervalNanos = nanos;
        lastMarkNanos = System.nanoTime() - nanos; // the first flush past the first page may carry it
    }

    /** Records the last published flush made durable. Role holder. */
    public int lastFlushRecords() {
        return lastFlushRecords;
    }

    /** Records published since the last claim, counted when a flush was last published. Role holder. */
    public int recordsWhenPublished() {
        return recordsWhenPublished;
    }

    /** How long the last published flush's write and fdatasync took. Role holder. */
    public long lastFlushNanos() {
        return lastFlushNanos;
    }

    /** The segment the sync thread is working on. Any thread. */
    public Segment syncingSegment() {
        return syncing;
    }
}
