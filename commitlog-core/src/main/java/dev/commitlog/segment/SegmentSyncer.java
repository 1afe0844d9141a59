package dev.commitlog.segment;

import static dev.commitlog.record.RecordDescriptor.END_OF_SEGMENT;
import static dev.commitlog.record.RecordDescriptor.alignedLength;

import com.lmax.disruptor.Sequence;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.metrics.MetricsRecorder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import java.util.function.Consumer;

/**
 * Finds how far the log is published and makes it durable, segment by segment, in order; owns the
 * durable position. Flushes can be pipelined: up to {@code depth} of them (a ring of
 * {@link FlushTicket}s) write and sync disjoint ranges at the same time, and the durable position
 * moves over them in claim order.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>Only the holder of the sync service's flush role calls {@link #claimFlush},
 *       {@link #publishCompleted}, {@link #hasUnflushedData}, {@link #publishedRecords},
 *       {@link #recordsWhenPublished} and {@link #writeExactMark}; the thread that claimed a ticket alone calls
 *       {@link #performFlush} and then {@link #completed} or {@link #abandoned} on it, without the
 *       role; any thread may read the durable position.</li>
 *   <li>Frames are claimed in position order and the scan stops at the first one whose length is
 *       still 0, so every flush covers a contiguous range just past the previous one's.</li>
 *   <li>The durable position moves only when the oldest unpublished flush is done, to that flush's
 *       end, with a volatile store after its sync returned: an appender is never told its record
 *       is durable while an earlier record could still be lost, even when a later flush's sync
 *       returns first. After a failed flush nothing later is published (the caller stops).</li>
 *   <li>A segment is left only after every flush of it is published, its end marker included, so
 *       a later segment's data never becomes durable before an earlier segment's and recovery
 *       sees at most one torn tail. Within a segment a later range may reach the device before an
 *       earlier one: recovery ends the log at the first bad frame past the durable mark, and the
 *       mark never passes the published durable position.</li>
 *   <li>Only one flush at a time rewrites the header's durable mark (a lower bound, so skipping a
 *       rewrite is always safe); the others leave the header alone. Past the segment's first page a
 *       flush rewrites it at most once per mark interval, since the header's block costs a second
 *       block per fdatasync. A clean close makes it exact ({@link #writeExactMark}), once no flush
 *       is outstanding.</li>
 * </ul>
 */
public final class SegmentSyncer {
    /** Ring size: the deepest pipeline a sync service may ask for. */
    public static final int MAX_PIPELINE_DEPTH = SegmentFile.MAX_FLUSH_LANES;
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
    /** A claimed, unpublished flush rewrites the header: no other may touch it until it is published. */
    private boolean headerInFlight;
    /** Flushes past the header's page rewrite the mark at most this often (0: every flush). */
    private long markIntervalNanos;
    /** When a claimed flush last carried the mark. */
    private long lastMarkNanos;
    private final FlushTicket[] tickets = new FlushTicket[MAX_PIPELINE_DEPTH];
    /**
     * Bit n set: an outstanding flush owns lane n. A claim takes the lowest free lane, so a flush
     * that runs alone always uses lane 0, the file's own channel, and other lanes (each a file
     * descriptor of its own) are opened only when flushes overlap. Freed when its flush is
     * published, by then its owner is done with the lane. Role holder only.
     */
    private int lanesInUse;
    /** None until a pipelined service asks ({@link #gateOverlap}): at depth 1 a flush never overlaps. */
    private OverlapTrials overlapTrials = new OverlapTrials(false);
    /** Flushes claimed and published so far; the ones in between are in flight (or done, unpublished). */
    private volatile long claimed;
    private volatile long published;
    /** The log position flushes are claimed up to; read by appenders deciding whether to ask for a flush. */
    private volatile long claimedPosition;
    /** Reused for the durable mark's checksum, so that a flush (run by an appender, inline) allocates nothing. */
    private final ByteBuffer markScratch = ByteBuffer.allocate(16);
    private final CRC32C markCrc = new CRC32C();

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
        for (int i = 0; i < tickets.length; i++) {
            tickets[i] = new FlushTicket();
        }
    }

    /** Everything below this log position is durable. */
    public long durablePosition() {
        return durable.get();
    }

    /** The durable position as a sequence, for waiters that spin on it. */
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

    /** Flushes claimed and not yet published (running, done, or failed). */
    public int outstanding() {
        long p = published;
        return (int) (claimed - p);
    }

    /** Whether a flush now would make anything new durable, or one is still in flight. Role holder only. */
    public boolean hasUnflushedData() {
        if (claimed != published || claimedOffset < (endSeen ? syncing.size() : scanOffset)) {
            return true;
        }
        return endSeen ? syncing.next() != null : syncing.lengthWordAt(scanOffset) != 0;
    }

    /**
     * Claims the next flush: everything published past the last claimed flush, up to the end of
     * its segment. Returns null when there is nothing new, when {@code depth} flushes are already
     * outstanding, when one is and overlapping has not measured faster here ({@link OverlapTrials}),
     * when it would carry fewer records than the newest running flush (it would split off that
     * flush's group), or when the segment is claimed to its end and its flushes are not all
     * published yet. Role holder only; the caller must run the ticket ({@link #performFlush}) and
     * then report it ({@link #completed} or {@link #abandoned}).
     *
     * @param depth how many flushes may be outstanding at once, 1 to {@link #MAX_PIPELINE_DEPTH}
     */
    public FlushTicket claimFlush(int depth) {
        long sequence = claimed;
        int running = (int) (sequence - published);
        if (running >= depth || (running > 0 && !overlapTrials.allowsOverlap())) {
            return null;
        }
        if (endSeen && claimedOffset == syncing.size()) {
            Segment next = syncing.next();
            if (sequence != published || next == null) {
                return null; // its flushes are still running, or the writer is still rolling over
            }
            Segment done = syncing;
            syncing = next;
            scanOffset = SegmentDescriptor.HEADER_LENGTH;
            claimedOffset = SegmentDescriptor.HEADER_LENGTH;
            endSeen = false;
            onSegmentDurable.accept(done);
        }
        scan();
        long flushTo = endSeen ? syncing.size() : scanOffset;
        if (flushTo <= claimedOffset) {
            return null;
        }
        if (running > 0) {
            FlushTicket newestRunning = tickets[(int) ((sequence - 1) % tickets.length)];
            if (!overlapTrials.allowsOverlap(recordsSinceClaim, newestRunning.records)) {
                return null; // too few yet: they wait for the group that flush will release
            }
        }
        FlushTicket ticket = tickets[(int) (sequence % tickets.length)];
        ticket.sequence = sequence;
        ticket.lane = Integer.numberOfTrailingZeros(~lanesInUse); // fewer than depth are in use: below depth
        lanesInUse |= 1 << ticket.lane;
        ticket.segment = syncing;
        ticket.from = (int) claimedOffset;
        ticket.to = (int) flushTo;
        ticket.records = recordsSinceClaim;
        ticket.headerLength = 0;
        ticket.overlapped = running > 0;
        long durableNow = durable.get();
        if (!headerInFlight && durableNow > 0 && markDue(ticket.from)) {
            syncing.writeDurableMark(durableNow, markChecksum(syncing, durableNow));
            ticket.headerLength = SegmentDescriptor.HEADER_LENGTH;
            headerInFlight = true;
        }
        recordsSinceClaim = 0;
        claimedOffset = flushTo;
        claimedPosition = syncing.basePosition() + flushTo;
        ticket.state = FlushTicket.RUNNING;
        claimed = sequence + 1;
        return ticket;
    }

    /** The checksum of {@code position} as {@code segment}'s durable mark; allocates nothing. Role holder only. */
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
     * Writes and syncs the ticket's range (and header). Its owner only, without the flush role, so
     * that flushes on different lanes overlap on the device.
     *
     * @throws IOException if the flush failed; the caller must report the ticket
     *                     {@link #abandoned} and stop flushing (see SegmentFile), unless it is a
     *                     {@link dev.commitlog.io.NoSpaceLeftException}: then calling this again
     *                     retries the same flush
     */
    public void performFlush(FlushTicket ticket) throws IOException {
        long started = System.nanoTime();
        ticket.segment.file().flushHeaderAndRange(ticket.headerLength, ticket.from, ticket.to, ticket.lane);
        ticket.elapsedNanos = System.nanoTime() - started;
    }

    /**
     * On a clean close, once every flush is published and none failed: writes the durable position
     * as the durable mark of the segment being synced and makes the header durable (its write and
     * an fdatasync, through the same file and lane 0 that flushes use). Recovery then treats damage
     * anywhere below the end of a cleanly closed log as corruption, where the lazily rewritten mark
     * would leave the last flushes looking like a torn tail. The mark stays a lower bound: the
     * position is durable already. Does nothing, and returns false, when the header already holds
     * this mark or when nothing was flushed since the log opened. Role holder only.
     *
     * @throws IllegalStateException if a flush is outstanding (running, unpublished or failed)
     * @throws IOException           if the header's write or sync failed; as after any failed
     *                               flush, nothing more may be written
     */
    public boolean writeExactMark() throws IOException {
        if (claimed != published) {
            throw new IllegalStateException((claimed - published) + " flushes are outstanding: the exact mark is written after the last one");
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

    /** The ticket's flush returned: it may be published once every earlier one is. Its owner only. */
    public void completed(FlushTicket ticket) {
        ticket.state = FlushTicket.DONE; // volatile store: the owner's writes before the publisher's reads
    }

    /** The ticket's flush failed: it is never published. Its owner only. */
    public void abandoned(FlushTicket ticket) {
        ticket.state = FlushTicket.FAILED;
    }

    /** Whether the oldest unpublished flush is done, so a role holder would publish it. Any thread. */
    public boolean hasCompletedUnpublished() {
        long next = published;
        if (next == claimed) {
            return false;
        }
        FlushTicket ticket = tickets[(int) (next % tickets.length)];
        return ticket.state == FlushTicket.DONE && ticket.sequence == next;
    }

    /** Whether some claimed flush is still writing or syncing. Any thread. */
    public boolean flushRunning() {
        for (FlushTicket ticket : tickets) {
            if (ticket.state == FlushTicket.RUNNING) {
                return true;
            }
        }
        return false;
    }

    /** Whether a claimed flush failed: nothing at or after it will ever be published. Any thread. */
    public boolean flushAbandoned() {
        for (FlushTicket ticket : tickets) {
            if (ticket.state == FlushTicket.FAILED) {
                return true;
            }
        }
        return false;
    }

    /**
     * Publishes done flushes in claim order, stopping at the first that is not done; returns
     * whether the durable position moved. Role holder only.
     */
    public boolean publishCompleted() {
        boolean moved = false;
        for (long next = published; next != claimed; next++) {
            FlushTicket ticket = tickets[(int) (next % tickets.length)];
            if (ticket.state != FlushTicket.DONE) {
                break;
            }
            metrics.flushCompleted(ticket.records, ticket.to - ticket.from, ticket.elapsedNanos, ticket.overlapped);
            overlapTrials.published(ticket.records, System.nanoTime());
            lastFlushRecords = ticket.records;
            lastFlushNanos = ticket.elapsedNanos;
            if (ticket.headerLength > 0) {
                headerInFlight = false;
            }
            durable.setVolatile(ticket.segment.basePosition() + ticket.to); // volatile store: publishes durability before waiters are drained
            lanesInUse &= ~(1 << ticket.lane);
            ticket.state = FlushTicket.FREE;
            published = next + 1;
            moved = true;
        }
        if (moved) {
            recordsWhenPublished = publishedRecords();
        }
        return moved;
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
     * Counts only the segment being flushed: enough for deciding whether to wait for more.
     */
    public int publishedRecords() {
        if (!endSeen) {
            scan();
        }
        return recordsSinceClaim;
    }

    /**
     * Whether a flush may start while another runs only when trials measure overlap as faster
     * ({@link OverlapTrials}; the default), or whenever the depth allows (the ablation). Called by
     * the sync service before its thread starts.
     */
    public void gateOverlap(boolean gate) {
        overlapTrials = new OverlapTrials(gate);
    }

    /**
     * Whether flushes run alone by the overlap trials' choice: no trial is running and the last one
     * chose solo flushes. Role holder only.
     */
    public boolean soloChosen() {
        return overlapTrials.soloChosen();
    }

    /**
     * Whether a flush may start while another runs, now: trials off (the ablation), a trial's
     * overlap arm, or overlap chosen. Role holder only.
     */
    public boolean overlapAllowed() {
        return overlapTrials.allowsOverlap();
    }

    /** Tests: trials already driven to a choice. */
    void useOverlapTrials(OverlapTrials trials) {
        overlapTrials = trials;
    }

    /**
     * How often, at most, a flush past the header's page also rewrites the durable mark (0: every
     * flush, which is also what a syncer does until told). Called by the log with
     * {@code commitlog_durable_mark_interval} before its sync service starts.
     */
    public void markInterval(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("durable mark interval " + nanos + " ns is negative");
        }
        markIntervalNanos = nanos;
        lastMarkNanos = System.nanoTime() - nanos; // the first flush past the first page may carry it
    }

    /** Records the last published flush made durable. */
    public int lastFlushRecords() {
        return lastFlushRecords;
    }

    /** Records published since the last claim, counted when a flush was last published. Role holder only. */
    public int recordsWhenPublished() {
        return recordsWhenPublished;
    }

    /** How long the last published flush's write and fdatasync took. */
    public long lastFlushNanos() {
        return lastFlushNanos;
    }

    /** The segment the sync thread is working on. */
    public Segment syncingSegment() {
        return syncing;
    }
}
