package dev.commitlog.segment;

import static dev.commitlog.format.RecordDescriptor.CRC_OFFSET;
import static dev.commitlog.format.RecordDescriptor.END_MARKER_LENGTH;
import static dev.commitlog.format.RecordDescriptor.END_OF_SEGMENT;
import static dev.commitlog.format.RecordDescriptor.FRAME_HEADER_LENGTH;
import static dev.commitlog.format.RecordDescriptor.LENGTH_OFFSET;

import com.lmax.disruptor.Sequence;
import dev.commitlog.format.FrameChecksum;
import dev.commitlog.format.SectionBudget;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * One mapped segment file that appenders write frames into.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>Space is claimed with {@link #claim}, an atomic add on the tail (never a lock, never a
 *       retry loop): each claim gets a distinct range. A claim whose range ends past
 *       {@link #recordLimit()} failed; exactly one failed claim starts at or before the limit, and
 *       its owner writes the end-of-segment marker there (space for it is always reserved).</li>
 *   <li>A claimant copies its payload and checksum in plain stores, then publishes the length
 *       word with an ordered store ({@link #publish}), so any thread that reads a non-zero length
 *       with {@link #lengthWordAt} (a volatile load) also sees the whole frame.</li>
 *   <li>Every claimed range is published exactly once, as a record, an aborted claim or the end
 *       marker; otherwise the sync thread, which advances over published frames in order, would
 *       stop at the hole for ever.</li>
 * </ul>
 */
public final class Segment {
    /** The OS page: what pretouch steps over, and the block an fdatasync writes at least. */
    static final int PAGE_SIZE = 4096;

    private final long id;
    private final long basePosition;
    private final int size;
    private final SegmentFile file;
    private final BytesStore<?, ?> memory;
    /** The next free offset; claims add to it. Padded: it is the most contended word in the log. */
    private final Sequence tail;
    /** The header's format version and life salt, which every frame checksum in this segment folds in. */
    private final int formatVersion;
    private final int salt;
    /** Set once the writer has moved on; read by the sync thread to follow it. */
    private volatile Segment next;
    /** Whether the file stores flushes as sections, whose overhead the segment's claims must leave room for. */
    private final boolean sectioned;
    /** Frames end at or before this offset; the rest is kept for the end marker (and, sectioned, the last section's overhead). */
    private final int recordLimit;
    /**
     * For a sectioned segment: a claim that would end past this offset seals the segment instead
     * ({@link #overBudget}), so that what is claimed always fits in the file as sections. Lowered
     * (or raised) by the flusher after each flush from the room left in the file; ordered store.
     */
    private volatile long sectionBudgetEnd = Long.MAX_VALUE;
    private final int firstFreeOffset;

    /**
     * A segment over a mapped file whose header says {@code id} and {@code basePosition}; the first
     * claim goes to {@code firstFreeOffset} (just past the header for a new segment, past the last
     * valid frame for a recovered one).
     */
    public Segment(long id, long basePosition, SegmentFile file, int firstFreeOffset) {
        this.id = id;
        this.basePosition = basePosition;
        this.size = file.size();
        this.file = file;
        this.memory = BytesStore.wrap(file.buffer());
        this.tail = new Sequence(firstFreeOffset);
        this.firstFreeOffset = firstFreeOffset;
        this.sectioned = file.sectioned();
        // A sectioned file holds its sections in the same size as the plain range: the last flush's
        // section (header, tag, padding, zero word) must fit after everything claimed.
        this.recordLimit = size - END_MARKER_LENGTH - (sectioned ? SectionBudget.SEGMENT_RESERVE : 0);
        if (sectioned) {
            budgetAfterFlush(firstFreeOffset, file.sectionRoom());
        }
        ByteBuffer header = file.buffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.formatVersion = header.getInt(SegmentDescriptor.VERSION_OFFSET);
        this.salt = header.getInt(SegmentDescriptor.SALT_OFFSET);
    }

    /** Points {@code checksum} at this segment's frames (format version and salt). */
    public void checksumFramesWith(FrameChecksum checksum) {
        checksum.forSegment(formatVersion, salt);
    }

    /** Whether bytes past the frames may be an earlier life's, not zeros (see {@link SegmentHeader#mayHoldStaleBytes}). */
    public boolean mayHoldStaleBytes() {
        return SegmentHeader.mayHoldStaleBytes(salt);
    }

    public long id() {
        return id;
    }

    public long basePosition() {
        return basePosition;
    }

    public long endPosition() {
        return basePosition + size;
    }

    public int size() {
        return size;
    }

    public SegmentFile file() {
        return file;
    }

    /** The mapped memory, for writing a claimed frame's payload in place. */
    public BytesStore<?, ?> memory() {
        return memory;
    }

    /** The mapped file as a buffer (shared: callers must use absolute access or duplicate it). */
    public ByteBuffer buffer() {
        return file.buffer();
    }

    /** Frames must end at or before this offset; the rest is kept for the end-of-segment marker. */
    public int recordLimit() {
        return recordLimit;
    }

    /** Whether the file stores flushes as sections (see {@link SegmentFile#sectioned()}). */
    public boolean sectioned() {
        return sectioned;
    }

    /**
     * Whether a claim of {@code alignedLength} bytes now would pass the section budget (sectioned
     * segments only; never the first claim, so a record the budget cannot hold still finds room
     * in an empty segment, which the reserve guarantees). Two volatile reads, no write.
     */
    boolean overBudget(int alignedLength) {
        if (!sectioned) {
            return false;
        }
        long at = tail.get();
        return at > firstFreeOffset && at + alignedLength > sectionBudgetEnd;
    }

    /**
     * Ends the segment here: takes all the space left with one claim, which fails; if it is the
     * first claim past the limit, writes the end marker where it starts. Every claim made before
     * stays valid; every later one fails and rolls over. Any thread.
     */
    void seal(FrameChecksum checksum) {
        long at = tail.getAndAdd(size);
        if (at <= recordLimit) {
            writeEndMarker(at, checksum);
        }
    }

    /** Whether no claim may succeed any more (full, or {@link #seal sealed}). */
    boolean sealed() {
        return tail.get() > recordLimit;
    }

    /**
     * The flusher, after claiming a flush up to {@code flushedTo} that leaves {@code roomAfter}
     * bytes of the file: claims may go on while what they add fits as one more section.
     */
    void budgetAfterFlush(long flushedTo, long roomAfter) {
        sectionBudgetEnd = SectionBudget.claimsEnd(flushedTo, roomAfter, size); // volatile store
    }

    /** Claims {@code alignedLength} bytes; returns the offset. Failed if offset + length > recordLimit(). */
    long claim(int alignedLength) {
        return tail.getAndAdd(alignedLength);
    }

    /** The next offset a claim would get (may be past the end once the segment is full). */
    public long tail() {
        return tail.get();
    }

    /** Copies a payload into a claimed frame. */
    public void write(long offset, byte[] bytes, int from, int length) {
        memory.write(offset + FRAME_HEADER_LENGTH, bytes, from, length);
    }

    /** Copies {@code record}'s remaining bytes into a claimed frame, without moving its position. */
    public void write(long offset, ByteBuffer record) {
        memory.write(offset + FRAME_HEADER_LENGTH, record, record.position(), record.remaining());
    }

    /** Publishes a frame: checksum first, then the length word (ordered store: publishes the frame). */
    public void publish(long offset, int lengthWord, int crc) {
        memory.writeInt(offset + CRC_OFFSET, crc);
        memory.writeOrderedInt(offset + LENGTH_OFFSET, lengthWord);
    }

    void writeEndMarker(long offset, FrameChecksum checksum) {
        checksumFramesWith(checksum);
        publish(offset, END_OF_SEGMENT, checksum.headerOnly(basePosition + offset, END_OF_SEGMENT));
    }

    /** The length word at {@code offset} (volatile load: pairs with the ordered store in publish). */
    public int lengthWordAt(long offset) {
        return memory.readVolatileInt(offset + LENGTH_OFFSET);
    }

    /**
     * Writes every page of the memory once, so that the fault of each page's first store (a
     * copy-on-write fault where the memory is a private mapping of the file, as for recovery's
     * tail; the production layer's new segments come with every page present) is taken here, by
     * the thread preparing the segment, and not by an appender: at 112 bytes a record, one append
     * in 37 would otherwise pay a fault and a page copy, which takes microseconds where a Periodic
     * append takes a fraction of one.
     *
     * <p>The write is a compare-and-swap of the word with itself: it changes nothing, and the JIT
     * cannot drop it. A plain store of the value just loaded from the same address is a redundant
     * store that C2 may remove, which would leave only the read faults to this thread and the
     * copies to the appenders ({@code PretouchTest} checks that every page is copied).
     */
    public void pretouch() {
        for (int page = 0; page < size; page += PAGE_SIZE) {
            int word = memory.readInt(page);
            memory.compareAndSwapInt(page, word, word);
        }
    }

    /**
     * Records, before a flush, a position that is already durable (see {@link SegmentDescriptor}),
     * with its checksum ({@link SegmentHeader#durableMarkCrc}).
     */
    void writeDurableMark(long durablePosition, int markCrc) {
        memory.writeLong(SegmentDescriptor.DURABLE_MARK_OFFSET, durablePosition);
        memory.writeInt(SegmentDescriptor.DURABLE_MARK_CRC_OFFSET, markCrc);
    }

    /**
     * Writes an exact durable mark (a position durable already, with its checksum) and makes the
     * header alone durable: its write and an fdatasync. For a clean close and for
     * recovery, when no flush of the segment is running.
     *
     * @throws IOException if the write or the sync failed
     */
    public void syncDurableMark(long durablePosition, int markCrc) throws IOException {
        writeDurableMark(durablePosition, markCrc);
        int header = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        file.flushHeaderAndRange(header, header, header);
    }

    /** The durable mark in the mapped header: the last one written, or the file's when none was. */
    long durableMarkInMemory() {
        return memory.readLong(SegmentDescriptor.DURABLE_MARK_OFFSET);
    }

    Segment next() {
        return next;
    }

    void next(Segment segment) {
        this.next = segment;
    }

    @Override
    public String toString() {
        return file.path().getFileName() + "[base=" + basePosition + ", size=" + size + "]";
    }
}
