package dev.commitlog.read;

import static dev.commitlog.format.RecordDescriptor.ALIGNMENT;
import static dev.commitlog.format.RecordDescriptor.END_MARKER_LENGTH;
import static dev.commitlog.format.RecordDescriptor.END_OF_SEGMENT;
import static dev.commitlog.format.RecordDescriptor.HEADER_LENGTH;

import dev.commitlog.CorruptLogException;
import dev.commitlog.PositionDiscardedException;
import dev.commitlog.RecordHandler;
import dev.commitlog.format.FrameChecksum;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.replay.FrameBoundaries;
import dev.commitlog.replay.FrameScanner;
import dev.commitlog.replay.LogPositions;
import dev.commitlog.replay.RecordViews;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Reads single records at known log positions (positions that appends returned), for any number
 * of threads at once. Get one through {@code CommitLog.readAt}.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>Reads only below the durable position, through read-only mappings of its own (never the
 *       writer's): a durable frame is whole in the file, so readers need no coordination with
 *       appenders or the sync thread beyond a volatile read of the durable position.</li>
 *   <li>Every record is verified (length, checksum salted with its position, padding) before it
 *       is handed out.</li>
 *   <li>A segment is mapped on first use and the mapping kept for later reads; the mappings form a
 *       copy-on-write array sorted by base position, so a read that finds its segment mapped
 *       takes no lock and allocates nothing (apart from a {@code byte[]} result it is asked for).</li>
 *   <li>Each mapping is reference counted: the reader's table holds one reference and each read in
 *       progress one more; the file is unmapped when the count drops to zero. So a mapping that is
 *       dropped (its segment discarded, or the reader closed) is never unmapped under a read.</li>
 *   <li>Positions below {@code discardedBelow} (segments deleted by {@code discardUpTo}), or below
 *       the oldest segment file present, are refused with {@link PositionDiscardedException}.</li>
 * </ul>
 */
public final class RecordReader implements AutoCloseable {
    private static final Mapping[] NONE = new Mapping[0];

    private final StorageLayer storage;
    private final Path directory;
    private final LongSupplier durablePosition;
    private final LongSupplier discardedBelow;
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);
    /** Mapped segments by ascending base position; replaced whole (under {@code this}), never changed in place. */
    private volatile Mapping[] mappings = NONE;
    private volatile boolean closed;

    /**
     * @param durablePosition the log's durable position
     * @param discardedBelow  every position below this lies in a deleted segment file
     */
    public RecordReader(StorageLayer storage, Path directory, LongSupplier durablePosition, LongSupplier discardedBelow) {
        this.storage = storage;
        this.directory = directory;
        this.durablePosition = durablePosition;
        this.discardedBelow = discardedBelow;
    }

    /** A read-only segment mapping with its reference count (the table's reference plus reads in progress). */
    private static final class Mapping {
        final SegmentFile file;
        final long base;
        final long end;
        final AtomicInteger refs = new AtomicInteger(1);

        Mapping(SegmentFile file, long base) {
            this.file = file;
            this.base = base;
            this.end = base + file.size();
        }

        boolean acquire() {
            for (int n = refs.get(); n > 0; n = refs.get()) {
                if (refs.compareAndSet(n, n + 1)) {
                    return true;
                }
            }
            return false; // already unmapped
        }

        void release() {
            if (refs.decrementAndGet() == 0) {
                file.close();
            }
        }
    }

    /** Per-thread state: a checksum and a little-endian view of the last mapping read, re-made only when the mapping changes. */
    private static final class Scratch {
        final FrameChecksum checksum = new FrameChecksum();
        Mapping viewOf;
        ByteBuffer view;
        /** The caller-facing read-only view for handler reads; its byte order is kept across mappings. */
        Mapping recordViewOf;
        ByteBuffer recordView;
        /** The payload length of the record {@link #verify} last verified on this thread. */
        int payloadLength;

        ByteBuffer view(Mapping mapping) {
            if (viewOf != mapping) {
                view = mapping.file.buffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
                viewOf = mapping;
            }
            return view;
        }

        ByteBuffer recordView(Mapping mapping) {
            if (recordViewOf != mapping) {
                ByteOrder order = recordView == null ? ByteOrder.BIG_ENDIAN : recordView.order();
                recordView = mapping.file.buffer().asReadOnlyBuffer().order(order);
                recordViewOf = mapping;
            }
            return recordView;
        }
    }

    /** The verified record at {@code position}, copied into a new array. */
    public byte[] read(long position) throws IOException {
        Mapping mapping = acquire(position);
        try {
            Scratch s = scratch.get();
            int payloadOffset = verify(mapping, position, s);
            int length = s.payloadLength;
            byte[] copy = new byte[length];
            mapping.file.buffer().get(payloadOffset, copy, 0, length);
            return copy;
        } finally {
            mapping.release();
        }
    }

    /**
     * Copies the verified record at {@code position} into {@code into} at its position, which
     * advances past it; returns the record's length.
     *
     * @throws IllegalArgumentException if the record is longer than {@code into.remaining()};
     *                                  nothing is copied and {@code into} is left unchanged
     */
    public int read(long position, ByteBuffer into) throws IOException {
        Mapping mapping = acquire(position);
        try {
            Scratch s = scratch.get();
            int payloadOffset = verify(mapping, position, s);
            int length = s.payloadLength;
            if (length > into.remaining()) {
                throw new IllegalArgumentException("the record at log position " + position + " is " + length
                        + " bytes; the buffer has room for " + into.remaining());
            }
            into.put(into.position(), mapping.file.buffer(), payloadOffset, length);
            into.position(into.position() + length);
            return length;
        } finally {
            mapping.release();
        }
    }

    /**
     * Hands the verified record at {@code position} to {@code handler} as a read-only view on the
     * mapping, valid only during the call (see {@link RecordHandler}); nothing is copied.
     */
    public void read(long position, RecordHandler handler) throws IOException {
        Mapping mapping = acquire(position);
        try {
            Scratch s = scratch.get();
            int payloadOffset = verify(mapping, position, s);
            int length = s.payloadLength;
            ByteBuffer view = s.recordView(mapping);
            RecordViews.point(view, payloadOffset, length);
            handler.onRecord(position, view);
        } finally {
            mapping.release();
        }
    }

    /**
     * Checks that a record starts at {@code position} in {@code mapping} and that it verifies;
     * returns the offset of its payload and leaves its length in {@code s.payloadLength}.
     *
     * @throws IllegalArgumentException if {@code position} is not where a frame starts
     * @throws CorruptLogException      if a frame starts there and fails verification
     */
    private int verify(Mapping mapping, long position, Scratch s) {
        ByteBuffer view = s.view(mapping);
        int offset = (int) (position - mapping.base);
        int recordLimit = view.capacity() - END_MARKER_LENGTH;
        if (offset < SegmentDescriptor.HEADER_LENGTH || offset % ALIGNMENT != 0 || offset > recordLimit) {
            throw LogPositions.notARecordStart(position, "it is not a frame boundary of segment " + mapping.file.path().getFileName()
                    + " (offset " + offset + ")");
        }
        int length = view.getInt(offset);
        if (length >= HEADER_LENGTH) {
            int aligned = RecordDescriptor.alignedLength(length);
            if (aligned > 0 && (long) offset + aligned <= recordLimit && checksumMatches(view, offset, length, aligned, position, s)) {
                s.payloadLength = length - HEADER_LENGTH;
                return offset + HEADER_LENGTH;
            }
        }
        throw explainFailure(mapping, offset, position, length);
    }

    private static boolean checksumMatches(ByteBuffer view, int offset, int length, int aligned, long position, Scratch s) {
        view.limit(offset + length).position(offset + HEADER_LENGTH);
        int computed = s.checksum.begin(position, length).update(view).value();
        view.clear();
        if (computed != view.getInt(offset + RecordDescriptor.CRC_OFFSET)) {
            return false;
        }
        for (int pad = offset + length; pad < offset + aligned; pad++) {
            if (view.get(pad) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The frame at {@code offset} is not a verified record. To tell a wrong position (a caller's
     * error) from damage to a record that is there, walks the segment's frames from its start
     * ({@link FrameBoundaries}): if the walk lands on {@code offset}, a frame really starts there
     * and the failure is damage; if it steps over {@code offset}, the position is inside a frame.
     * Costs a scan of the segment, paid only on this failure path.
     */
    private RuntimeException explainFailure(Mapping mapping, int offset, long position, int lengthWord) {
        FrameScanner scanner = new FrameScanner();
        scanner.reset(mapping.file.buffer(), mapping.base);
        try {
            FrameBoundaries.requireFrameStart(scanner, mapping.file.path(), mapping.base, offset);
        } catch (IllegalArgumentException | CorruptLogException e) {
            return e;
        }
        if (lengthWord == END_OF_SEGMENT) {
            return LogPositions.notARecordStart(position, "it holds the end-of-segment marker");
        }
        if (RecordDescriptor.isAborted(lengthWord) && scanner.scan(offset) == FrameScanner.Kind.ABORTED) {
            return LogPositions.notARecordStart(position, "it holds an aborted claim, not a record");
        }
        FrameScanner.Kind kind = scanner.scan(offset);
        return new CorruptLogException(mapping.file.path(), offset, position,
                kind == FrameScanner.Kind.BAD ? scanner.reason() : "no verified record at a frame boundary below the durable position",
                "the file changed after it was flushed");
    }

    /** The mapping holding {@code position}, with a reference the caller releases. */
    private Mapping acquire(long position) throws IOException {
        LogPositions.requireBelowDurable(position, durablePosition.getAsLong());
        long discarded = discardedBelow.getAsLong();
        if (position < discarded) {
            dropBelow(discarded);
            throw new PositionDiscardedException(position, discarded);
        }
        while (true) {
            if (closed) {
                throw new IllegalStateException("the commit log is closed");
            }
            Mapping[] table = mappings;
            if (table.length > 0 && table[0].end <= discarded) {
                dropBelow(discarded);
                continue;
            }
            Mapping found = find(table, position);
            if (found == null) {
                found = map(position);
            }
            if (found.acquire()) {
                return found;
            }
            // Dropped and unmapped between the lookup and the acquire: look again.
        }
    }

    private static Mapping find(Mapping[] table, long position) {
        int low = 0;
        int high = table.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            Mapping m = table[mid];
            if (position < m.base) {
                high = mid - 1;
            } else if (position >= m.end) {
                low = mid + 1;
            } else {
                return m;
            }
        }
        return null;
    }

    /** Maps the segment that holds {@code position} and adds it to the table. */
    private synchronized Mapping map(long position) throws IOException {
        Mapping existing = find(mappings, position);
        if (existing != null) {
            return existing;
        }
        long oldest = -1;
        for (SegmentRef ref : listSegments()) {
            SegmentHeader header = ref.readHeader(storage);
            if (header == null) {
                continue; // damaged (left for an operator) or deleted since the listing
            }
            if (oldest < 0) {
                oldest = header.basePosition();
            }
            if (position < header.basePosition()) {
                break;
            }
            if (position < header.endPosition()) {
                SegmentFile file;
                try {
                    file = storage.open(ref.path(), false);
                } catch (NoSuchFileException e) {
                    break; // deleted since its header was read: a discard, checked below
                }
                Mapping mapping = new Mapping(file, header.basePosition());
                if (mapping.end != header.endPosition()) {
                    mapping.release();
                    throw new CorruptLogException(ref.path(), 0, header.basePosition(), "the file is " + file.size()
                            + " bytes, its header says " + (header.endPosition() - header.basePosition()), "");
                }
                Mapping[] table = mappings;
                int at = 0;
                while (at < table.length && table[at].base < mapping.base) {
                    at++;
                }
                Mapping[] grown = new Mapping[table.length + 1];
                System.arraycopy(table, 0, grown, 0, at);
                grown[at] = mapping;
                System.arraycopy(table, at, grown, at + 1, table.length - at);
                mappings = grown;
                if (closed) {
                    dropBelow(Long.MAX_VALUE);
                }
                return mapping;
            }
        }
        // A discard may delete files while they are listed; it raises discardedBelow first.
        long discarded = discardedBelow.getAsLong();
        if (position < discarded) {
            throw new PositionDiscardedException(position, Math.max(oldest, discarded));
        }
        if (oldest < 0 || position < oldest) {
            throw new PositionDiscardedException(position, Math.max(oldest, 0));
        }
        throw new IllegalStateException("no segment file in " + directory + " holds log position " + position
                + ", below the durable position " + durablePosition.getAsLong());
    }

    /**
     * The segment files, oldest first. A discard running alongside can delete a file between the
     * directory listing and the check that each entry is a regular file, which then reports it as
     * "not a regular file"; a listing taken again no longer holds it, while an entry that really is
     * a directory is reported every time.
     */
    private List<SegmentRef> listSegments() throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return SegmentRef.list(storage, directory);
            } catch (FileSystemException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    /** Drops (and unmaps once no read uses them) the mappings that end at or below {@code position}. */
    private synchronized void dropBelow(long position) {
        Mapping[] table = mappings;
        int keep = 0;
        while (keep < table.length && table[keep].end <= position) {
            keep++;
        }
        if (keep == 0) {
            return;
        }
        mappings = keep == table.length ? NONE : Arrays.copyOfRange(table, keep, table.length);
        for (int i = 0; i < keep; i++) {
            table[i].release();
        }
    }

    /** Unmaps every segment once the reads in progress finish; later reads throw {@link IllegalStateException}. Idempotent. */
    @Override
    public void close() {
        closed = true;
        dropBelow(Long.MAX_VALUE);
    }
}
