package dev.commitlog.replay;

import dev.commitlog.BytesRecordHandler;
import dev.commitlog.CorruptLogException;
import dev.commitlog.PositionDiscardedException;
import dev.commitlog.RecordHandler;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.segment.SegmentDescriptor;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentHeaderException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.VanillaBytes;

/**
 * Follows a live log from a position: each {@link #poll} hands over the records that became
 * durable since the last one, in position order, and a timed poll waits for more. The feed for
 * replication and change-data capture. Get one from {@code CommitLog.tailer(fromPosition)}.
 *
 * <pre>{@code
 * try (LogTailer tailer = log.tailer(lastShipped)) {
 *     while (tailer.poll((position, record) -> replica.send(position, record), 1_000, 100, TimeUnit.MILLISECONDS) >= 0) { }
 * }
 * }</pre>
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>One thread uses a tailer at a time. It reads the segment files through its own read-only
 *       mappings, never the writer's, so it needs no coordination with appenders or the sync
 *       thread: its only input from the log is the durable position (a volatile read).</li>
 *   <li>Never returns a record at or past the durable position read at the start of the poll: only
 *       what a crash cannot take back. Every frame is verified (checksum) before it is returned; a
 *       bad one below the durable position is damage after the flush and throws
 *       {@link CorruptLogException}.</li>
 *   <li>Follows rollover: after a segment's end marker it opens the next segment (only once the
 *       durable position has passed into it, so a segment still being created is never read).</li>
 *   <li>Discards: a segment already mapped stays readable after {@code discardUpTo} deletes its
 *       file; if the next segment the tailer needs was deleted, {@link PositionDiscardedException}
 *       says where the log now starts, and the tailer stays where it was (it never skips ahead on
 *       its own: a replica that lost records must know).</li>
 *   <li>Records come as a read-only {@code ByteBuffer} ({@link #poll(RecordHandler, int)}, see
 *       {@link RecordHandler} for what the view allows) or a Chronicle {@code Bytes}
 *       ({@link #pollBytes(BytesRecordHandler, int)}).</li>
 *   <li>No allocation per record: one frame scanner and one view, re-pointed at each record (as
 *       {@link Replayer} does); a mapping (and a {@code ByteBuffer} view) per segment.</li>
 *   <li>Waiting: a timed poll spins briefly, then parks for growing intervals (10 us doubling to
 *       {@link #MAX_PARK_NANOS}), re-reading the durable position each time. The sync thread does
 *       not know tailers exist, so the flush path pays nothing for them; the cost is up to 1 ms of
 *       extra latency after an idle spell.</li>
 *   <li>After the log closes, a poll returns what was durable and then -1 (end of the log).</li>
 * </ul>
 */
public final class LogTailer implements AutoCloseable {
    private static final int SPINS = 100;
    private static final long MIN_PARK_NANOS = 10_000;
    private static final long MAX_PARK_NANOS = 1_000_000;

    private final StorageLayer storage;
    private final Path directory;
    private final LongSupplier durablePosition;
    private final BooleanSupplier logClosed;
    private final FrameScanner scanner = new FrameScanner();
    private final VanillaBytes<Void> bytesView = VanillaBytes.vanillaBytes();
    /** Records below this are read past, not returned. */
    private final long from;

    /** The mapped segment being read, or null until the next one is opened. */
    private SegmentFile file;
    private BytesStore<?, ?> store;
    /** A read-only view on {@link #file}'s mapping, re-pointed at each record; its byte order is kept across segments. */
    private ByteBuffer bufferView;
    private ByteOrder bufferOrder = ByteOrder.BIG_ENDIAN;
    /** The id and base position of {@link #file}, or of the segment to open next. */
    private long segmentId;
    private long base;
    /** The next frame's offset in {@link #file}. */
    private int offset;
    private boolean closed;

    private LogTailer(StorageLayer storage, Path directory, LongSupplier durablePosition, BooleanSupplier logClosed, long from) {
        this.storage = storage;
        this.directory = directory;
        this.durablePosition = durablePosition;
        this.logClosed = logClosed;
        this.from = from;
    }

    /**
     * A tailer that returns the records at or after {@code from}.
     *
     * @param durablePosition the log's durable position
     * @param logClosed       true once the log is closed and its durable position final
     * @throws IllegalArgumentException   if {@code from} is negative, past the durable position, or
     *                                    not a frame boundary (inside a record, a header, or past an end marker)
     * @throws PositionDiscardedException if {@code from} lies before the oldest segment in the log
     */
    public static LogTailer open(StorageLayer storage, Path directory, LongSupplier durablePosition, BooleanSupplier logClosed,
                                 long from) throws IOException {
        long durable = durablePosition.getAsLong();
        LogPositions.requireAtMostDurable(from, durable, "a tailer starts at or below the durable position and waits for more");
        LogTailer tailer = new LogTailer(storage, directory, durablePosition, logClosed, from);
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
        FrameBoundaries.requireFrameStart(scanner, file.path(), base, at);
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

    /**
     * Hands {@code handler} up to {@code maxRecords} durable records that follow the last one
     * returned, without waiting, each as a read-only {@code ByteBuffer} (see {@link RecordHandler}).
     * If the handler throws, that record is returned again by the next poll.
     *
     * @return the number of records handed over; 0 if none is durable yet; -1 once the log is
     *         closed and every durable record has been returned
     */
    public int poll(RecordHandler handler, int maxRecords) throws IOException {
        return pollOnce(handler, null, maxRecords);
    }

    /** As {@link #poll(RecordHandler, int)}, each record as a Chronicle {@code Bytes}. */
    public int pollBytes(BytesRecordHandler handler, int maxRecords) throws IOException {
        return pollOnce(null, handler, maxRecords);
    }

    /**
     * As {@link #poll(RecordHandler, int)}, but when nothing is durable yet waits up to
     * {@code timeout} for a record.
     *
     * @return as {@link #poll(RecordHandler, int)}; 0 when the timeout passed with nothing new
     */
    public int poll(RecordHandler handler, int maxRecords, long timeout, TimeUnit unit) throws IOException, InterruptedException {
        return pollWaiting(handler, null, maxRecords, timeout, unit);
    }

    /** As {@link #poll(RecordHandler, int, long, TimeUnit)}, each record as a Chronicle {@code Bytes}. */
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
            if (file == null && !openNext(limit)) {
                break;
            }
            long position = base + offset;
            if (position >= limit) {
                break; // everything durable has been read
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
                case UNWRITTEN, BAD -> throw new CorruptLogException(file.path(), offset, position,
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

    /** The log position the next record will be at or after: just past the last one returned or read past. */
    public long position() {
        return Math.max(from, base + (file == null ? 0 : offset));
    }

    private void deliver(RecordHandler buffers, BytesRecordHandler bytes, long position) {
        int payload = scanner.payloadOffset();
        if (buffers != null) {
            if (bufferView == null) {
                bufferView = file.buffer().asReadOnlyBuffer().order(bufferOrder);
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
        Path path = directory.resolve(SegmentDescriptor.fileName(segmentId));
        SegmentFile next;
        try {
            next = storage.open(path, false);
        } catch (NoSuchFileException e) {
            throw new PositionDiscardedException(base, oldestPosition());
        }
        SegmentHeader header;
        try {
            header = SegmentHeader.decode(next.buffer(), segmentId, next.size());
        } catch (SegmentHeaderException e) {
            next.close();
            throw new CorruptLogException(path, 0, base, LogWalker.DAMAGED_HEADER + e.getMessage(), "the tailer cannot go past it");
        }
        if (header.basePosition() != base) {
            next.close();
            throw new CorruptLogException(path, 0, base, "segment starts at log position " + header.basePosition() + ", expected " + base,
                    "the tailer cannot go past it");
        }
        file = next;
        store = BytesStore.wrap(next.buffer());
        scanner.reset(next.buffer(), base);
        offset = SegmentDescriptor.HEADER_LENGTH;
        return true;
    }

    /** Past an end marker: the next segment starts where this one ends. */
    private void nextSegment() {
        base += file.size();
        segmentId++;
        file.close();
        file = null;
        store = null;
        dropBufferView();
    }

    private void dropBufferView() {
        if (bufferView != null) {
            bufferOrder = bufferView.order();
            bufferView = null;
        }
    }

    private long oldestPosition() throws IOException {
        for (SegmentRef ref : SegmentRef.list(storage, directory)) {
            SegmentHeader header = ref.readHeader(storage);
            if (header != null) {
                return header.basePosition();
            }
        }
        return base;
    }

    /** Unmaps the segment being read. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (file != null) {
                file.close();
                file = null;
                dropBufferView();
            }
        }
    }
}
