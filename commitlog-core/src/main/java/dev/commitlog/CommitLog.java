package dev.commitlog;

import static dev.commitlog.format.RecordDescriptor.alignedFrameLength;
import static dev.commitlog.format.RecordDescriptor.frameLength;

import dev.commitlog.async.AsyncCompletions;
import dev.commitlog.codec.RecordCodec;
import dev.commitlog.codec.RecordDecoder;
import dev.commitlog.codec.TypedAppendCallback;
import dev.commitlog.codec.TypedRecordHandler;
import dev.commitlog.codec.TypedTailer;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.disk.ChronicleJvmFlags;
import dev.commitlog.disk.DirectoryLock;
import dev.commitlog.format.FrameChecksum;
import dev.commitlog.instrument.CommitLogJmx;
import dev.commitlog.instrument.MetricsRecorder;
import dev.commitlog.instrument.StatsReport;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.lifecycle.CompletedSegment;
import dev.commitlog.metrics.CommitLogMetrics;
import dev.commitlog.read.RecordReader;
import dev.commitlog.read.SegmentTailer;
import dev.commitlog.replay.LogPositions;
import dev.commitlog.replay.LogRecovery;
import dev.commitlog.replay.Replayer;
import dev.commitlog.retention.SegmentLifecycle;
import dev.commitlog.retention.SegmentRetention;
import dev.commitlog.retention.SpaceLimitedStorage;
import dev.commitlog.segment.AppendSlot;
import dev.commitlog.segment.Segment;
import dev.commitlog.segment.SegmentSyncer;
import dev.commitlog.segment.SegmentWriter;
import dev.commitlog.sync.SyncEngine;
import dev.commitlog.sync.SyncService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import net.openhft.chronicle.bytes.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A commit log: append records from any number of threads; each append returns the record's log
 * position once the record is as durable as the configured sync mode promises.
 *
 * <pre>{@code
 * try (CommitLog log = CommitLog.open(CommitLogConfig.load(Path.of("conf/commitlog.yaml")))) {
 *     long position = log.append(bytes, 0, bytes.length);
 *     log.replay(0, (pos, record) -> apply(record));
 * }
 * }</pre>
 *
 * <p>This class wires the parts together and holds no logic of its own: the segment writer claims
 * space, the sync service decides when to flush and who waits, recovery and replay read back.
 */
public final class CommitLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CommitLog.class);
    private static final CorruptionListener LOGGING_LISTENER = (file, offset, position, reason, action) ->
            LOG.warn("commit log damage in {} at offset {} (log position {}): {}; {}", file, offset, position, reason, action);

    private final CommitLogConfig config;
    private final SpaceLimitedStorage storage;
    private final DirectoryLock lock;
    private final MetricsRecorder metrics;
    private final SegmentWriter writer;
    private final SegmentSyncer syncer;
    private final SyncService sync;
    private final Replayer replayer;
    private final SegmentRetention retention;
    private final SegmentLifecycle lifecycle;
    private final CommitLogJmx jmx;
    private final RecordReader reader;
    private final ThreadLocal<AppendContext> contexts;
    private final Object maintenance = new Object();
    private final long openedNanos = System.nanoTime();
    /** Asynchronous appends not yet completed, per submitting thread; bounds what one thread has in flight. */
    public static final int MAX_ASYNC_IN_FLIGHT_PER_THREAD = 1 << 16;
    private volatile AsyncCompletions completions;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Set when close has finished: the durable position is final (tailers then end). */
    private volatile boolean closeFinished;

    private CommitLog(CommitLogConfig config, CommitLogOptions options, DirectoryLock lock, LogRecovery.Recovered recovered,
                      CorruptionListener listener, CommitLogJmx jmx) throws IOException {
        this.config = config;
        this.lock = lock;
        this.metrics = new MetricsRecorder();
        this.contexts = ThreadLocal.withInitial(() -> new AppendContext(metrics));
        this.syncer = new SegmentSyncer(recovered.tail(), recovered.firstFreeOffset(), metrics, this::segmentDurable);
        this.storage = new SpaceLimitedStorage(options.storage(), config.directory(), config.totalSpace(), options.spaceListener(),
                syncer::durablePosition, metrics);
        syncer.markInterval(config.durableMarkInterval().toNanos());
        this.retention = new SegmentRetention(storage, config.directory(), syncer::durablePosition, () -> syncer.syncingSegment().id(),
                options.archiveListener() == null ? Long.MAX_VALUE : firstId(recovered), maintenance);
        this.lifecycle = new SegmentLifecycle(options.archiveListener(), retention, metrics, options.archiveRetryDelay());
        lifecycle.offerRecovered(recovered.segments(), recovered.tail().id(), storage);
        this.writer = SegmentWriter.start(recovered.tail(), recovered.next(), storage, config.directory(), config.segmentSize(),
                config.filePermissions(), metrics);
        this.sync = SyncEngine.create(config, syncer, metrics, options.syncTuning());
        this.replayer = new Replayer(storage, config.replayPolicy(), listener);
        this.reader = new RecordReader(storage, config.directory(), syncer::durablePosition, retention::discardedBelow);
        this.jmx = jmx;
        if (jmx != null) {
            jmx.bind(this::metrics);
        }
        sync.start();
    }

    /** Opens (creating if needed) the log in {@code commitlog_directory}, recovering what is there. */
    public static CommitLog open(CommitLogConfig config) throws IOException {
        return open(config, CommitLogOptions.defaults());
    }

    /**
     * Opens the log over a given file layer (tests inject faults through it), telling
     * {@code listener} about damage that the replay policy lets recovery and replay go past.
     */
    public static CommitLog open(CommitLogConfig config, StorageLayer storage, CorruptionListener listener) throws IOException {
        return open(config, CommitLogOptions.builder().storage(storage).corruptionListener(listener).build());
    }

    /**
     * Opens the log with the embedding node's listeners and JMX settings (see {@link CommitLogOptions}).
     *
     * @throws IllegalStateException if the JVM lacks the flags Chronicle Bytes needs (the message
     *                               names them); checked before the directory is touched
     * @throws FileSystemException  if {@code commitlog_directory}, or a parent of it, exists and is not a
     *                               directory (the message says "not a directory" and names the key)
     * @throws IOException           if the directory cannot be created, locked or recovered
     */
    public static CommitLog open(CommitLogConfig config, CommitLogOptions options) throws IOException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(options, "options");
        ChronicleJvmFlags.check(); // before any file is made: without the flags Chronicle fails half-way through
        CorruptionListener listener = options.corruptionListener() == null ? LOGGING_LISTENER : options.corruptionListener();
        Path directory = config.directory();
        createDirectory(directory);
        DirectoryLock lock = DirectoryLock.acquire(directory);
        CommitLogJmx jmx = null;
        try {
            jmx = options.jmx() ? registerJmx(config, options) : null; // first: a name clash fails before anything starts
            LogRecovery.Recovered recovered = LogRecovery.recover(directory, options.storage(), config.segmentSize(),
                    config.filePermissions(), config.replayPolicy(), listener);
            return new CommitLog(config, options, lock, recovered, listener, jmx);
        } catch (IOException | RuntimeException | Error e) {
            if (jmx != null) {
                jmx.close();
            }
            lock.closeLeavingNoTrace();
            throw e;
        }
    }

    /** Appends {@code length} bytes of {@code bytes} from {@code offset}; returns the record's position. */
    public long append(byte[] bytes, int offset, int length) {
        return append(bytes, offset, length, Ack.MODE);
    }

    /**
     * Appends {@code length} bytes of {@code bytes} from {@code offset}, returning when the record
     * is as durable as {@code ack} asks, whatever the sync mode; returns the record's position.
     */
    public long append(byte[] bytes, int offset, int length, Ack ack) {
        AppendContext context = writeRecord(bytes, offset, length, null);
        return afterPublish(context.slot, context, ack);
    }

    /**
     * Appends without waiting: returns the record's position at once, and tells {@code callback}
     * on the completion thread, in position order, after the flush that covers the record (in a
     * Periodic log: the next periodic flush). Allocates nothing: one callback object may serve
     * every append. A thread may have {@link #MAX_ASYNC_IN_FLIGHT_PER_THREAD} appends in flight;
     * past that, this call waits for completions.
     */
    public long appendAsync(byte[] bytes, int offset, int length, AppendCallback callback) {
        Objects.requireNonNull(callback, "callback");
        return appendAsyncTo(bytes, offset, length, callback);
    }

    /** As {@link #appendAsync(byte[], int, int, AppendCallback)}, completing a future with the position. */
    public CompletableFuture<Long> appendAsync(byte[] bytes, int offset, int length) {
        CompletableFuture<Long> future = new CompletableFuture<>();
        appendAsyncTo(bytes, offset, length, future);
        return future;
    }

    /**
     * As {@link #appendAsync(byte[], int, int, AppendCallback)}, for {@code record}'s remaining
     * bytes (its position is left unchanged; the bytes are copied before this returns).
     */
    public long appendAsync(ByteBuffer record, AppendCallback callback) {
        Objects.requireNonNull(callback, "callback");
        return asyncSubmitted(writeRecord(record, callback));
    }

    /** As {@link #appendAsync(ByteBuffer, AppendCallback)}, completing a future with the position. */
    public CompletableFuture<Long> appendAsync(ByteBuffer record) {
        CompletableFuture<Long> future = new CompletableFuture<>();
        asyncSubmitted(writeRecord(record, future));
        return future;
    }

    private long appendAsyncTo(byte[] bytes, int offset, int length, Object completion) {
        return asyncSubmitted(writeRecord(bytes, offset, length, completion));
    }

    /** After an asynchronous append's record is published: ask for its flush and return at once. */
    long asyncSubmitted(AppendContext context) {
        sync.requestSync(context.slot.endPosition());
        context.metrics.appendCompleted(); // the call completed; its durability is the callback's
        return context.slot.position();
    }

    private AsyncCompletions completions() {
        AsyncCompletions made = completions;
        if (made == null) {
            synchronized (maintenance) {
                made = completions;
                if (made == null) {
                    made = new AsyncCompletions(sync, MAX_ASYNC_IN_FLIGHT_PER_THREAD, config.directory().getFileName().toString());
                    completions = made;
                }
            }
        }
        return made;
    }

    /**
     * Claims, copies, checksums and publishes one record. With a {@code completion} (an
     * AppendCallback or a CompletableFuture) the record is also registered for an asynchronous
     * completion, before it is published (see AsyncCompletions).
     */
    private AppendContext writeRecord(byte[] bytes, int offset, int length, Object completion) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        AppendContext context = beginAppend(length, completion);
        AppendSlot slot = context.slot;
        Segment segment = slot.segment();
        segment.write(slot.offset(), bytes, offset, length);
        int frameLength = frameLength(length);
        int crc = context.checksum.begin(slot.position(), frameLength).update(bytes, offset, length).value();
        if (completion != null) {
            context.registerCompletion(completion);
        }
        segment.publish(slot.offset(), frameLength, crc);
        return context;
    }

    /** The most records one {@link #appendBatch(byte[][], long[], Ack)} call takes. */
    public static final int MAX_BATCH = 256;

    /**
     * Appends every array of {@code records}, in order, then waits once, for the last one, until
     * the batch is as durable as the sync mode promises; returns the records' positions, ascending.
     * See {@link #appendBatch(byte[][], long[], Ack)}.
     */
    public long[] appendBatch(byte[][] records) {
        long[] positions = new long[records.length];
        appendBatch(records, positions, Ack.MODE);
        return positions;
    }

    /**
     * Appends every array of {@code records} (1 to {@link #MAX_BATCH} of them), in order, each as
     * one record, writing record {@code i}'s position to {@code positionsOut[i]}; then waits once,
     * for the end of the last record, until it is as durable as {@code ack} asks. Durability covers
     * a prefix of the log, so the whole batch is then as durable as its last record. Other threads'
     * records may lie between the batch's records. Allocates nothing.
     *
     * <p>Every length is checked before anything is written, so an oversized record refuses the
     * whole batch. A failure while claiming space (the log closed or failed mid-batch) leaves the
     * records before the failing one in the log, not waited for; their positions are in
     * {@code positionsOut}.
     *
     * @return the position of the last record
     * @throws IllegalArgumentException if {@code records} is empty or longer than {@link #MAX_BATCH},
     *                                  or {@code positionsOut} is shorter than it
     * @throws RecordTooLargeException  if any record exceeds {@code commitlog_max_record_size}; nothing is written
     */
    public long appendBatch(byte[][] records, long[] positionsOut, Ack ack) {
        Objects.requireNonNull(ack, "ack");
        checkOpen();
        int count = records.length;
        if (count == 0 || count > MAX_BATCH) {
            throw new IllegalArgumentException("a batch holds 1 to " + MAX_BATCH + " records, got " + count);
        }
        if (positionsOut.length < count) {
            throw new IllegalArgumentException("positionsOut has room for " + positionsOut.length + " positions, the batch has "
                    + count + " records");
        }
        for (byte[] record : records) {
            Objects.requireNonNull(record, "a record of the batch is null");
            if (record.length > config.maxRecordSize()) {
                metrics.oversizeRejected();
                throw new RecordTooLargeException(record.length, config.maxRecordSize());
            }
        }
        AppendContext context = null;
        for (int i = 0; i < count; i++) {
            if (context != null) {
                context.metrics.appendCompleted(); // each record counts as one append; only the last waits
            }
            byte[] record = records[i];
            context = writeRecord(record, 0, record.length, null);
            positionsOut[i] = context.slot.position();
        }
        return afterPublish(context.slot, context, ack);
    }

    /** Appends {@code record}'s remaining bytes (its position is left unchanged); returns the record's position. */
    public long append(ByteBuffer record) {
        return append(record, Ack.MODE);
    }

    /**
     * Appends {@code record}'s remaining bytes (its position is left unchanged), returning when the
     * record is as durable as {@code ack} asks, whatever the sync mode; returns the record's position.
     */
    public long append(ByteBuffer record, Ack ack) {
        AppendContext context = writeRecord(record, null);
        return afterPublish(context.slot, context, ack);
    }

    /** {@link #writeRecord(byte[], int, int, Object)} for a buffer's remaining bytes; leaves its position alone. */
    AppendContext writeRecord(ByteBuffer record, Object completion) {
        int length = record.remaining();
        AppendContext context = beginAppend(length, completion);
        AppendSlot slot = context.slot;
        Segment segment = slot.segment();
        segment.write(slot.offset(), record);
        int frameLength = frameLength(length);
        int start = record.position();
        int crc = context.checksum.begin(slot.position(), frameLength).update(record).value();
        record.position(start);
        if (completion != null) {
            context.registerCompletion(completion);
        }
        segment.publish(slot.offset(), frameLength, crc);
        return context;
    }

    /**
     * Appends {@code record} encoded by {@code codec} straight into the mapped segment (see
     * {@link RecordCodec}); returns its position once it is as durable as the sync mode promises.
     *
     * @throws dev.commitlog.codec.RecordEncodingException if the codec failed; nothing was logged
     */
    public <T> long append(T record, RecordCodec<T> codec) {
        return append(record, codec, Ack.MODE);
    }

    /** As {@link #append(Object, RecordCodec)}, returning when the record is as durable as {@code ack} asks. */
    public <T> long append(T record, RecordCodec<T> codec, Ack ack) {
        AppendContext context = CodecAppender.write(this, record, codec, null);
        return afterPublish(context.slot, context, ack);
    }

    /** As {@link #appendAsync(byte[], int, int, AppendCallback)}, for {@code record} encoded by {@code codec}. */
    public <T> long appendAsync(T record, RecordCodec<T> codec, AppendCallback callback) {
        Objects.requireNonNull(callback, "callback");
        return asyncSubmitted(CodecAppender.write(this, record, codec, callback));
    }

    /**
     * As {@link #appendAsync(Object, RecordCodec, AppendCallback)}, handing {@code record} back to
     * {@code callback} with its position, so that one callback object serves every append with no
     * capturing lambda (see {@link TypedAppendCallback}). The log holds a reference to
     * {@code record} until the callback ran.
     */
    public <T> long appendAsync(T record, RecordCodec<T> codec, TypedAppendCallback<? super T> callback) {
        Objects.requireNonNull(callback, "callback");
        AppendContext context = contexts.get();
        context.attachment = record;
        try {
            return asyncSubmitted(CodecAppender.write(this, record, codec, callback));
        } finally {
            context.attachment = null;
        }
    }

    /** As {@link #appendAsync(Object, RecordCodec, AppendCallback)}, completing a future with the position. */
    public <T> CompletableFuture<Long> appendAsync(T record, RecordCodec<T> codec) {
        CompletableFuture<Long> future = new CompletableFuture<>();
        asyncSubmitted(CodecAppender.write(this, record, codec, future));
        return future;
    }

    AppendContext appendContext() {
        return contexts.get();
    }

    /**
     * Zero-copy append: reserves {@code length} bytes and returns them as Chronicle {@code Bytes}
     * in the mapped segment; write exactly {@code length} bytes, then {@link AppendClaim#commit()}.
     */
    public Bytes<?> claim(int length, AppendClaim claim) {
        if (claim.active()) {
            throw new IllegalStateException("this AppendClaim is still open: commit or abort it first");
        }
        checkAppendable(length);
        contexts.get().metrics.appendStarted();
        claimSpace(length, claim.slot, claim.checksum);
        return claim.begin(this, length);
    }

    AppendContext beginAppend(int length, Object completion) {
        checkAppendable(length);
        AppendContext context = contexts.get();
        context.metrics.appendStarted();
        if (completion != null) {
            if (context.submitter == null) {
                context.submitter = completions().register();
            }
            context.submitter.awaitSpace(); // before claiming: see Submitter.awaitSpace
        }
        claimSpace(length, context.slot, context.checksum);
        return context;
    }

    private void checkAppendable(int length) {
        checkOpen();
        if (length > config.maxRecordSize()) {
            metrics.oversizeRejected();
            throw new RecordTooLargeException(length, config.maxRecordSize());
        }
        RuntimeException failure = sync.failure();
        if (failure != null) {
            throw failure;
        }
    }

    /** Every operation on the log refuses the same way once {@link #close()} began. */
    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("commit log " + config.directory() + " is closed");
        }
    }

    private void claimSpace(int length, AppendSlot slot, FrameChecksum checksum) {
        try {
            writer.claim(alignedFrameLength(length), slot, checksum);
        } catch (IOException e) {
            throw new CommitLogException("append refused, nothing written: " + e.getMessage(), e);
        }
    }

    long afterPublish(AppendSlot slot) {
        return afterPublish(slot, contexts.get(), Ack.MODE);
    }

    long afterPublish(AppendSlot slot, AppendContext context, Ack ack) {
        switch (ack) {
            case MODE -> sync.afterAppend(slot.endPosition(), context.waiter);
            case DURABLE -> sync.syncUpTo(slot.endPosition(), context.waiter);
            case WRITTEN -> sync.requestSync(slot.endPosition());
        }
        context.metrics.appendCompleted();
        return slot.position();
    }

    /**
     * Replays every verified record at or after {@code fromPosition}, in position order, up to the
     * durable position at the time of the call. Each record comes as a read-only {@code ByteBuffer}
     * view, reused from record to record and valid only during the call (see {@link RecordHandler}).
     *
     * <p>{@code fromPosition} is a record start (a position an append returned), a position a
     * tailer reported, the durable position (nothing to replay), or any position at or below the
     * start of the oldest segment left, such as 0: replay is the node's recovery of its own log,
     * and what {@link #discardUpTo} deleted the node persisted elsewhere. (A tailer, which serves
     * readers that must know of a gap, refuses discarded positions instead.)
     *
     * @throws IllegalArgumentException if {@code fromPosition} is negative, past the durable
     *                                  position, or inside a record; nothing is replayed
     * @throws IllegalStateException    if the log is closed
     * @throws CorruptLogException on damage the replay policy does not allow past
     * @throws UncheckedIOException if a segment file cannot be read
     */
    public void replay(long fromPosition, RecordHandler handler) {
        Objects.requireNonNull(handler, "handler");
        synchronized (maintenance) {
            long durable = replayLimit(fromPosition);
            try {
                replayer.replay(config.directory(), fromPosition, durable, handler);
            } catch (IOException e) {
                throw new UncheckedIOException("replay of " + config.directory() + " failed: " + e.getMessage(), e);
            }
        }
    }

    /**
     * As {@link #replay(long, RecordHandler)}, each record as a Chronicle {@code Bytes} view on the
     * mapped segment (see {@link BytesRecordHandler}).
     */
    public void replayBytes(long fromPosition, BytesRecordHandler handler) {
        Objects.requireNonNull(handler, "handler");
        synchronized (maintenance) {
            long durable = replayLimit(fromPosition);
            try {
                replayer.replayBytes(config.directory(), fromPosition, durable, handler);
            } catch (IOException e) {
                throw new UncheckedIOException("replay of " + config.directory() + " failed: " + e.getMessage(), e);
            }
        }
    }

    /** The durable position a replay from {@code fromPosition} stops at, once the log is open and the position allowed. */
    private long replayLimit(long fromPosition) {
        checkOpen();
        long durable = syncer.durablePosition();
        LogPositions.requireAtMostDurable(fromPosition, durable, "replay reads only durable records");
        return durable;
    }

    /** As {@link #replay(long, RecordHandler)}, each record decoded by {@code codec} (see {@link RecordDecoder}). */
    public <T> void replay(long fromPosition, RecordCodec<T> codec, TypedRecordHandler<T> handler) {
        replayBytes(fromPosition, new RecordDecoder<>(codec, handler));
    }

    /** As {@link #tailer(long)}, each record decoded by {@code codec}. */
    public <T> TypedTailer<T> tailer(long fromPosition, RecordCodec<T> codec) throws IOException {
        return new TypedTailer<>(tailer(fromPosition), codec);
    }

    /**
     * Follows the log from {@code fromPosition}: a reader of durable records that waits for more
     * (for replication or change-data capture). See {@link LogTailer}. {@code fromPosition} is a
     * record start, a position a tailer reported, or the durable position (the tailer waits for
     * the next record).
     *
     * @throws IllegalArgumentException   if {@code fromPosition} is negative, past the durable
     *                                    position, or inside a record
     * @throws PositionDiscardedException if {@code fromPosition} was discarded
     * @throws IllegalStateException      if the log is closed
     */
    public LogTailer tailer(long fromPosition) throws IOException {
        checkOpen();
        return SegmentTailer.open(storage, config.directory(), reader.mappings(), syncer::durablePosition, () -> closeFinished, fromPosition);
    }

    /**
     * Reads the record at {@code position} (a position an append returned), verified by its
     * checksum, as a new array. Safe from any number of threads at once: reads go through
     * read-only mappings of the segment files, kept for later reads, never the writer's.
     *
     * <p>A position that is not the start of a record (inside a record, on an aborted claim or an
     * end-of-segment marker, not on a frame boundary) throws {@link IllegalArgumentException}: it is
     * the caller's error, and the message says where the position lies. A frame that does start
     * there but fails its checksum throws {@link CorruptLogException}: it is below the durable
     * position, so it changed after it was flushed. Telling the two apart takes a walk of the
     * segment's frames up to the position, done only when the frame there does not verify.
     *
     * @throws IllegalArgumentException   if {@code position} is negative, at or past
     *                                    {@link #durablePosition()} (the message names both), or not
     *                                    the start of a record
     * @throws PositionDiscardedException if {@code position} lies below the oldest retained segment
     * @throws CorruptLogException        if the record at {@code position} fails verification
     * @throws IllegalStateException      if the log is closed
     * @throws UncheckedIOException       if a segment file cannot be mapped
     */
    public byte[] readAt(long position) {
        checkOpen();
        try {
            return reader.read(position);
        } catch (IOException e) {
            throw readFailed(position, e);
        }
    }

    /**
     * As {@link #readAt(long)}, copying the record into {@code into} at its position, which
     * advances past it; returns the record's length. Allocates nothing once the segment is mapped.
     *
     * @throws IllegalArgumentException also if the record is longer than {@code into.remaining()}
     *                                  (the message gives its length); {@code into} is then unchanged
     */
    public int readAt(long position, ByteBuffer into) {
        Objects.requireNonNull(into, "into");
        checkOpen();
        try {
            return reader.read(position, into);
        } catch (IOException e) {
            throw readFailed(position, e);
        }
    }

    /**
     * As {@link #readAt(long)}, handing the record to {@code handler} as a read-only view on the
     * mapped segment, valid only during the call (see {@link RecordHandler}); copies nothing.
     */
    public void readAt(long position, RecordHandler handler) {
        Objects.requireNonNull(handler, "handler");
        checkOpen();
        try {
            reader.read(position, handler);
        } catch (IOException e) {
            throw readFailed(position, e);
        }
    }

    private UncheckedIOException readFailed(long position, IOException e) {
        return new UncheckedIOException("reading log position " + position + " in " + config.directory() + " failed: "
                + e.getMessage(), e);
    }

    /**
     * The caller has persisted everything below {@code position} elsewhere: delete the segment
     * files that lie wholly below it. Files that cannot go yet (the sync thread has not left them,
     * or they are not yet archived) are deleted as soon as they can.
     *
     * <p>{@code position} may be any position from 0 to {@link #durablePosition()}, a record start
     * or not: files go whole, only when they end at or below {@code position}, so the record that
     * holds it and every record after it stay. A position past the durable one is refused, because
     * the log remembers a discard and applies it to segments as they complete: a position past
     * what is durable would later delete records acknowledged after this call. In a Periodic log,
     * call {@link #sync()} first to discard up to the last record appended. A position lower than
     * an earlier discard's does nothing.
     *
     * @throws IllegalArgumentException if {@code position} is negative or past {@link #durablePosition()};
     *                                  nothing is discarded
     * @throws IllegalStateException    if the log is closed
     */
    public void discardUpTo(long position) {
        checkOpen();
        try {
            retention.discardUpTo(position);
        } catch (IOException e) {
            throw new UncheckedIOException("discarding " + config.directory() + " up to " + position + " failed: " + e.getMessage(), e);
        }
    }

    /** Returns when everything appended before the call is durable, whatever the sync mode. */
    public void sync() {
        checkOpen();
        sync.syncUpTo(writer.claimedPosition(), contexts.get().waiter);
    }

    /** Everything below this log position is durable (after close: the final durable position). */
    public long durablePosition() {
        return syncer.durablePosition();
    }

    /**
     * A snapshot of the counters and latencies (also over JMX: {@link CommitLogOptions#jmxName()}).
     * Also after close, with the final figures.
     */
    public CommitLogMetrics metrics() {
        return metrics.snapshot(syncer.durablePosition(), storage.used());
    }

    /**
     * A short report for people, a few lines in the manner of RocksDB's {@code rocksdb.stats}:
     * appends and flushes with their rates, the group-commit factor, latencies (p50, p99, p99.9,
     * max), segments and space. Also after close, with the final figures.
     */
    public String stats() {
        return StatsReport.format("commit log " + config.directory() + " (" + config.syncMode().name().toLowerCase(java.util.Locale.ROOT)
                + ")", metrics(), System.nanoTime() - openedNanos, config.totalSpace());
    }

    /** The configuration the log was opened with (also after close). */
    public CommitLogConfig config() {
        return config;
    }

    /** Flushes what was appended, stops the threads and releases the directory. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        sync.close();
        AsyncCompletions made = completions;
        if (made != null) {
            made.close(); // after the sync service's last flush: completes what it covered, fails the rest
        }
        storage.close(); // an allocator waiting for space gives up, so the writer can stop
        writer.close();
        lifecycle.close();
        reader.close();
        closeFinished = true;
        if (jmx != null) {
            jmx.close();
        }
        try {
            lock.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not release the lock on " + config.directory(), e);
        }
    }

    /**
     * Sync thread: a segment is sealed and durable. Unmaps it (no appender touches it any more) and
     * hands it to the lifecycle thread (archive, deferred discards), which never blocks this thread.
     */
    private void segmentDurable(Segment segment) {
        segment.file().close();
        lifecycle.segmentCompleted(new CompletedSegment(segment.id(), segment.file().path(), segment.basePosition(),
                segment.endPosition()));
    }

    /** Creates the log directory, saying which setting names it when a regular file is in the way. */
    private static void createDirectory(Path directory) throws IOException {
        if (Files.exists(directory) && !Files.isDirectory(directory)) {
            throw new FileSystemException(directory.toString(), null, "not a directory (commitlog_directory); point "
                    + "commitlog_directory at a directory, or at a path that does not exist yet (it is created)");
        }
        for (Path parent = directory.getParent(); parent != null; parent = parent.getParent()) {
            if (Files.exists(parent) && !Files.isDirectory(parent)) {
                // createDirectories would say only "Not a directory" about the path asked for.
                throw new FileSystemException(parent.toString(), null, "not a directory, so commitlog_directory " + directory
                        + " cannot be created under it");
            }
        }
        Files.createDirectories(directory);
    }

    /** The first segment that may need archiving: the oldest one recovered. */
    private static long firstId(LogRecovery.Recovered recovered) {
        return recovered.segments().isEmpty() ? recovered.tail().id() : recovered.segments().get(0).id();
    }

    private static CommitLogJmx registerJmx(CommitLogConfig config, CommitLogOptions options) {
        String directory = config.directory().toAbsolutePath().normalize().toString();
        String name = options.jmxName() != null ? options.jmxName() : CommitLogJmx.defaultName(directory);
        return CommitLogJmx.register(name, directory, config.totalSpace());
    }
}
