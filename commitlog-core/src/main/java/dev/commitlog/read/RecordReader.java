package dev.commitlog.read;

import static dev.commitlog.format.RecordDescriptor.ALIGNMENT;
import static dev.commitlog.format.RecordDescriptor.END_MARKER_LENGTH;
import static dev.commitlog.format.RecordDescriptor.END_OF_SEGMENT;
import static dev.commitlog.format.RecordDescriptor.FRAME_HEADER_LENGTH;

import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.PositionDiscardedException;
import dev.commitlog.RecordHandler;
import dev.commitlog.format.FrameChecksum;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.replay.FrameBoundaries;
import dev.commitlog.replay.FrameScanner;
import dev.commitlog.replay.LogPositions;
import dev.commitlog.replay.RecordViews;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * Reads single records at known log positions (positions that appends returned), for any number
 * of threads at once. Get one through {@code CommitLog.readAt}.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>Reads only below the durable position, through read-only mappings (never the writer's):
 *       a durable frame is whole in the file, so readers need no coordination with appenders or
 *       the sync thread beyond a volatile read of the durable position.</li>
 *   <li>Every record is verified (length, checksum salted with its position, padding) before it
 *       is handed out.</li>
 *   <li>Segments are mapped through the log's one table of read-only mappings
 *       ({@link SegmentMappings}, which the tailers share): a segment is mapped on first use and
 *       kept, and a read that finds its segment mapped takes no lock and allocates nothing (apart
 *       from a {@code byte[]} result it is asked for).</li>
 *   <li>Each read holds a reference to its mapping while it reads, so a mapping that is dropped
 *       (its segment discarded, or the reader closed) is never unmapped under a read.</li>
 *   <li>Positions below {@code discardedBelow} (segments deleted by {@code discardUpTo}), or below
 *       the oldest segment file present, are refused with {@link PositionDiscardedException}.</li>
 * </ul>
 */
public final class RecordReader implements AutoCloseable {
    private final LongSupplier durablePosition;
    private final SegmentMappings mappings;
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    /**
     * @param durablePosition the log's durable position
     * @param discardedBelow  every position below this lies in a deleted segment file
     */
    public RecordReader(StorageLayer storage, Path directory, LongSupplier durablePosition, LongSupplier discardedBelow) {
        this.durablePosition = durablePosition;
        this.mappings = new SegmentMappings(storage, directory, discardedBelow);
    }

    /** Per-thread state: a checksum and a little-endian view of the last mapping read, re-made only when the mapping changes. */
    private static final class Scratch {
        final FrameChecksum checksum = new FrameChecksum();
        SegmentMapping viewOf;
        ByteBuffer view;
        /** The caller-facing read-only view for handler reads; its byte order is kept across mappings. */
        SegmentMapping recordViewOf;
        ByteBuffer recordView;
        /** The payload length of the record {@link #verify} last verified on this thread. */
        int payloadLength;

        ByteBuffer view(SegmentMapping mapping) {
            if (viewOf != mapping) {
                view = mapping.buffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
                viewOf = mapping;
                checksum.forSegment(view.getInt(SegmentDescriptor.VERSION_OFFSET), view.getInt(SegmentDescriptor.SALT_OFFSET));
            }
            return view;
        }

        ByteBuffer recordView(SegmentMapping mapping) {
            if (recordViewOf != mapping) {
                ByteOrder order = recordView == null ? ByteOrder.BIG_ENDIAN : recordView.order();
                recordView = mapping.buffer().asReadOnlyBuffer().order(order);
                recordViewOf = mapping;
            }
            return recordView;
        }
    }

    /** The verified record at {@code position}, copied into a new array. */
    public byte[] read(long position) throws IOException {
        SegmentMapping mapping = acquire(position);
        try {
            Scratch s = scratch.get();
            int payloadOffset = verify(mapping, position, s);
            int length = s.payloadLength;
            byte[] copy = new byte[length];
            mapping.buffer().get(payloadOffset, copy, 0, length);
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
        SegmentMapping mapping = acquire(position);
        try {
            Scratch s = scratch.get();
            int payloadOffset = verify(mapping, position, s);
            int length = s.payloadLength;
            if (length > into.remaining()) {
                throw new IllegalArgumentException("the record at log position " + position + " is " + length
                        + " bytes; the buffer has room for " + into.remaining());
            }
            into.put(into.position(), mapping.buffer(), payloadOffset, length);
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
        SegmentMapping mapping = acquire(position);
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
    private int verify(SegmentMapping mapping, long position, Scratch s) {
        ByteBuffer view = s.view(mapping);
        int offset = (int) (position - mapping.base);
        int recordLimit = view.capacity() - END_MARKER_LENGTH;
        if (offset < SegmentDescriptor.SEGMENT_HEADER_LENGTH || offset % ALIGNMENT != 0 || offset > recordLimit) {
            throw LogPositions.notARecordStart(position, "it is not a frame boundary of segment " + mapping.path().getFileName()
                    + " (offset " + offset + ")");
        }
        int length = view.getInt(offset);
        if (length >= FRAME_HEADER_LENGTH) {
            int aligned = RecordDescriptor.alignedLength(length);
            if (aligned > 0 && (long) offset + aligned <= recordLimit && checksumMatches(view, offset, length, aligned, position, s)) {
                s.payloadLength = length - FRAME_HEADER_LENGTH;
                return offset + FRAME_HEADER_LENGTH;
            }
        }
        throw explainFailure(mapping, offset, position, length);
    }

    private static boolean checksumMatches(ByteBuffer view, int offset, int length, int aligned, long position, Scratch s) {
        view.limit(offset + length).position(offset + FRAME_HEADER_LENGTH);
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
    private RuntimeException explainFailure(SegmentMapping mapping, int offset, long position, int lengthWord) {
        FrameScanner scanner = new FrameScanner();
        scanner.reset(mapping.buffer(), mapping.base);
        try {
            FrameBoundaries.requireFrameStart(scanner, mapping.path(), mapping.base, offset);
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
        return new CorruptLogException(mapping.path(), offset, position, Damage.BAD_FRAME,
                kind == FrameScanner.Kind.BAD ? scanner.reason() : "no verified record at a frame boundary below the durable position",
                "the file changed after it was flushed");
    }

    /** The mapping holding {@code position}, with a reference the caller releases. */
    private SegmentMapping acquire(long position) throws IOException {
        long durable = durablePosition.getAsLong();
        LogPositions.requireBelowDurable(position, durable);
        SegmentMapping mapping = mappings.holding(position);
        try {
            mapping.readableBelow(durable);
        } catch (IOException | RuntimeException e) {
            mapping.release();
            throw e;
        }
        return mapping;
    }

    /** The table this reader maps segments through: the log's one table, which its tailers share. */
    public SegmentMappings mappings() {
        return mappings;
    }

    /** Unmaps every segment once the reads (and tailers) using it finish; later reads throw {@link IllegalStateException}. Idempotent. */
    @Override
    public void close() {
        mappings.close();
    }
}
