package dev.commitlog.read;

import dev.commitlog.BytesRecordHandler;
import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.LogTailer;
import dev.commitlog.PositionDiscardedException;
import dev.commitlog.RecordHandler;
import dev.commitlog.format.SegmentDescriptor;
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
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.VanillaBytes;

/**
 * The {@link LogTailer} over segment files: reads them one segment at a time through the log's
 * table of read-only mappings ({@link SegmentMappings}, shared with random reads), holding a
 * reference to the segment it is on, with one {@link FrameScanner} and one view re-pointed at each
 * record (nothing allocated per record). The guarantees are {@link LogTailer}'s; how each is kept
 * is said where it is kept.
 */
public final class SegmentTailer implements LogTailer {
    private static final int SPINS = 100;
    private static final long MIN_PARK_NANOS = 10_000;
    private static final long MAX_PARK_NANOS = 1_000_000;

    private final StorageLayer storage;
    private final Path directory;
    private final SegmentMappings mappings;
    private final LongSupplier durablePosition;
    private final BooleanSupplier logClosed;
    private final FrameScanner scanner = new FrameScanner();
    private final VanillaBytes<Void> bytesView = VanillaBytes.vanillaBytes();
    /** Records below this are read past, not returned. */
    private final long from;

    /**
     * The segment being read, with this tailer's reference to its mapping (so the mapping outlives
     * a discard of its file or the close of the log), or null until the next one is opened.
     */
    private SegmentMapping segment;
    private BytesStore<?, ?> store;
    /** A read-only view on {@link #segment}'s mapping, re-pointed at each record; its byte order is kept across segments. */
    private ByteBuffer bufferView;
    private ByteOrder bufferOrder = ByteOrder.BIG_ENDIAN;
    /** The id and base position of {@link #segment}, or of the segment to open next. */
    private long segmentId;
    private long base;
    /** The next frame's offset in {@link #segment}. */
    private int offset;
    /** The durable position {@link #segment} was last made readable below (a sectioned segment decodes on demand). */
    private long readableTo;
    private boolean closed;

    private SegmentTailer(StorageLayer storage, Path directory, SegmentMappings mappings, LongSupplier durablePosition,
                          BooleanSupplier logClosed, long from) {
        this.storage = storage;
        this.directory = directory;
        this.mappings = mappings;
        this.durablePosition = durablePosition;
        this.logClosed = logClosed;
        this.from = from;
    }

    /**
     * A tailer that returns the records at or after {@code from}.
     *
     * @param mappings        the log's table of read-only mappings ({@link RecordReader#mappings()})
     * @param durablePosition the log's durable position
     * @param logClosed       true once the log is closed and its durable position final
     * @throws IllegalArgumentException   if {@code from} is negative, past the durable position, or
     *                                    not a frame boundary (inside a record, a header, or past an end marker)
     * @throws PositionDiscardedException if {@code from} lies before the oldest segment in the log
     */
    public static SegmentTailer open(StorageLayer storage, Path directory, SegmentMappings mappings, LongSupplier durablePosition,
                                     BooleanSupplier logClosed, long from) throws IOException {
        long durable = durablePosition.getAsLong();
        LogPositions.requireAtMostDurable(from, durable, "a tailer starts at or below the durable position and waits for more");
        SegmentTailer tailer = new SegmentTailer(storage, directory, mappings, durablePosition, logClosed, from);
        try {
            tailer.seek();
            tailer.startAtFrom(durable);
        } catch (IOException | RuntimeException e) {
            tailer.close();
            throw e;
        }
        return tailer;
    }

    /**
     * When {@link #from} lies inside a segment (not at its base), opens that segment and places the
     * tailer on {@link #from}, refusing a position that is not a frame boundary. The segment is
     * durable up to {@link #from}, so the walk to it reads only complete frames.
     */
    private void startAtFrom(long durable) throws IOException {
        if (from == base || !openNext(durable)) {
            return;
        }
        int at = (int) (from - base);
        segment.readableBelow(durable);
        FrameBoundaries.requireFrameStart(scanner, segment.path(), base, at);
        offset = at;
    }

    /** Finds the segment holding {@link #from}, or the one that will follow the last. */
    private void seek() throws IOException {
        long oldest = -1;
        SegmentRef last = null;
        long lastEnd = 0;
        for (SegmentRef ref : SegmentRef.list(storage, directory)) {
            SegmentHeader header = ref.readHeader(storage);
            if (header == null) {
                continue; // deleted since the listing, or damaged: not where the tailer can start
            }
            if (oldest < 0) {
                oldest = header.basePosition();
            }
            if (from < header.endPosition()) {
                if (from < header.basePosition()) {
                    throw new PositionDiscardedException(from, oldest);
                }
                segmentId = ref.id();
                base = header.basePosition();
                return;
            }
            last = ref;
            lastEnd = header.endPosition();
        }
        // Past every file: the records will be in segments not created yet.
        segmentId = last == null ? 0 : last.id() + 1;
        base = lastEnd;
    }

    @Override
    public int poll(RecordHandler handler, int maxRecords) throws IOException {
        return pollOnce(handler, null, maxRecords);
    }

    @Override
    public int pollBytes(BytesRecordHandler handler, int maxRecords) throws IOException {
        return pollOnce(null, handler, maxRecords);
    }

    @Override
    public int poll(RecordHandler handler, int maxRecords, long timeout, TimeUnit unit) throws IOException, InterruptedException {
        return pollWaiting(handler, null, maxRecords, timeout, unit);
    }

    @Override
    public int pollBytes(BytesRecordHandler handler, int maxRecords, long timeout, TimeUnit unit) throws IOException, InterruptedException {
        return pollWaiting(null, handler, maxRecords, timeout, unit);
    }

    /** Exactly one of {@code buffers} and {@code bytes} is non-null. */
    private int pollOnce(RecordHandler buffers, BytesRecordHandler bytes, int maxRecords) throws IOException {
        if (closed) {
            throw new IllegalStateException("this tailer is closed");
        }
        boolean finalCheck = logClosed.getAsBoolean(); // read before the durable position: then that position is final
        long limit = durablePosition.getAsLong();
        int delivered = 0;
        while (delivered < maxRecords) {
            if (segment == null && !openNext(limit)) {
                break;
            }
            long position = base + offset;
            if (position >= limit) {
                break; // everything durable has been read
            }
            if (readableTo < limit) {
                segment.readableBelow(limit); // a sectioned segment decodes what was flushed since
                readableTo = limit;
            }
            switch (scanner.scan(offset)) {
                case RECORD -> {
                    if (position >= from) {
                        deliver(buffers, bytes, position);
                        delivered++;
                    }
                    offset += scanner.alignedLength();
                }
                case ABORTED -> offset += scanner.alignedLength();
                case END -> nextSegment();
                case UNWRITTEN, BAD -> throw new CorruptLogException(segment.path(), offset, position, Damage.BAD_FRAME,
                        scanner.reason() == null ? "no frame below the durable position" : scanner.reason(),
                        "the file changed after it was flushed");
                default -> throw new IllegalStateException();
            }
        }
        if (delivered == 0 && finalCheck && position() >= limit) {
            return -1;
        }
        return delivered;
    }

    private int pollWaiting(RecordHandler buffers, BytesRecordHandler bytes, int maxRecords, long timeout, TimeUnit unit)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        long park = MIN_PARK_NANOS;
        for (int idle = 0; ; idle++) {
            int delivered = pollOnce(buffers, bytes, maxRecords);
            if (delivered != 0) {
                return delivered;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return 0;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for durable records");
            }
            if (idle < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(this, Math.min(park, left));
                park = Math.min(park * 2, MAX_PARK_NANOS);
            }
        }
    }

    @Override
    public long position() {
        return Math.max(from, base + (segment == null ? 0 : offset));
    }

    private void deliver(RecordHandler buffers, BytesRecordHandler bytes, long position) {
        int payload = scanner.payloadOffset();
        if (buffers != null) {
            if (bufferView == null) {
                bufferView = segment.buffer().asReadOnlyBuffer().order(bufferOrder);
            }
            RecordViews.point(bufferView, payload, scanner.payloadLength());
            buffers.onRecord(position, bufferView);
        } else {
            RecordViews.point(bytesView, store, payload, scanner.payloadLength());
            bytes.onRecord(position, bytesView);
        }
    }

    /** Opens segment {@link #segmentId} once the durable position has passed into it. */
    private boolean openNext(long limit) throws IOException {
        if (base >= limit) {
            return false; // nothing in it is durable yet (it may not even exist yet)
        }
        segment = mappings.segment(segmentId, base);
        segment.readableBelow(limit); // before its buffer is taken: a sectioned segment's is its plain image from then on
        readableTo = limit;
        store = BytesStore.wrap(segment.buffer());
        scanner.reset(segment.buffer(), base);
        offset = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        return true;
    }

    /** Past an end marker: the next segment starts where this one ends. */
    private void nextSegment() {
        base = segment.end;
        segmentId++;
        releaseSegment();
        mappings.dropDiscarded(); // a segment discarded while it was read is unmapped now, not at the next lookup
    }

    private void releaseSegment() {
        segment.release();
        segment = null;
        store = null;
        dropBufferView();
    }

    private void dropBufferView() {
        if (bufferView != null) {
            bufferOrder = bufferView.order();
            bufferView = null;
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (segment != null) {
                releaseSegment();
            }
        }
    }
}
