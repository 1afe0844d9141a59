package dev.commitlog;

import dev.commitlog.codec.RecordCodec;
import dev.commitlog.codec.RecordDecoder;
import dev.commitlog.codec.TypedAppendCallback;
import dev.commitlog.codec.TypedRecordHandler;
import dev.commitlog.codec.TypedTailer;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.disk.DirectoryLock;
import dev.commitlog.instrument.CommitLogJmx;
import dev.commitlog.instrument.MetricsRecorder;
import dev.commitlog.instrument.StatsReport;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.metrics.CommitLogMetrics;
import dev.commitlog.read.RecordReader;
import dev.commitlog.replay.LogRecovery;
import dev.commitlog.replay.Replayer;
import dev.commitlog.retention.DurableSegmentHandOff;
import dev.commitlog.retention.SegmentLifecycle;
import dev.commitlog.retention.SegmentRetention;
import dev.commitlog.retention.SpaceLimitedStorage;
import dev.commitlog.segment.SegmentSyncer;
import dev.commitlog.segment.SegmentWriter;
import dev.commitlog.segment.SpareSegments;
import dev.commitlog.sync.SyncEngine;
import dev.commitlog.sync.SyncService;
import dev.commitlog.sync.SyncSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import net.openhft.chronicle.bytes.Bytes;

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
 * <p>This class wires the parts together and holds no logic of its own: the append path
 * ({@code Appender}: checks, framing, the wait each {@link Ack} asks for), the read path
 * ({@code LogReads}: replay, tailers, reads at a position), the segment writer and syncer, the sync
 * service that decides when to flush and who waits, and retention, which deletes what discards free.
 */
public final class CommitLog implements AutoCloseable {
    private final CommitLogConfig config;
    private final SpaceLimitedStorage storage;
    private final DirectoryLock lock;
    private final MetricsRecorder metrics;
    private final SegmentWriter writer;
    private final SegmentSyncer syncer;
    private final SyncService sync;
    private final SegmentRetention retention;
    private final SegmentLifecycle lifecycle;
    private final CommitLogJmx jmx;
    private final LogReads reads;
    private final Appender appender;
    private final OpenState state;
    /** Held by replay and by deletions of segment files, so a replay never finds a file gone half-way. */
    private final Object maintenance = new Object();
    private final long openedNanos = System.nanoTime();
    /** Asynchronous appends not yet completed, per submitting thread; bounds what one thread has in flight. */
    public static final int MAX_ASYNC_IN_FLIGHT_PER_THREAD = Appender.MAX_ASYNC_IN_FLIGHT_PER_THREAD;

    private CommitLog(CommitLogConfig config, CommitLogOptions options, LogOpening.Opened opened) throws IOException {
        LogRecovery.Recovered recovered = opened.recovered();
        this.config = config;
        this.lock = opened.lock();
        this.metrics = new MetricsRecorder();
        this.state = new OpenState(config.directory());
        DurableSegmentHandOff handOff = new DurableSegmentHandOff();
        SegmentSyncer syncer = new SegmentSyncer(recovered.tail(), recovered.firstFreeOffset(), metrics, handOff);
        this.syncer = syncer; // lambdas below capture the local, not this (see DurableSegmentHandOff)
        this.storage = new SpaceLimitedStorage(opened.storage(), config.directory(), config.totalSpace(), options.spaceListener(),
                syncer::durablePosition, metrics);
        syncer.markInterval(config.durableMarkInterval().toNanos());
        SpaceLimitedStorage space = storage; // captured below instead of this (see DurableSegmentHandOff)
        int segmentSize = config.segmentSize();
        SpareSegments spares = SpareSegments.open(storage, config.directory(), config.recycleSegments(), segmentSize,
                () -> space.hasRoomFor(segmentSize));
        this.retention = new SegmentRetention(storage, config.directory(), syncer::durablePosition, () -> syncer.syncingSegment().id(),
                options.archiveListener() == null ? Long.MAX_VALUE : LogOpening.firstId(recovered), spares, maintenance);
        this.lifecycle = new SegmentLifecycle(options.archiveListener(), retention, metrics, options.archiveRetryDelay());
        lifecycle.offerRecovered(recovered.segments(), recovered.tail().id(), storage);
        handOff.deliverTo(lifecycle); // before the sync thread starts, which publishes it
        this.writer = SegmentWriter.start(recovered.tail(), recovered.next(), storage, config.directory(), config.segmentSize(),
                config.filePermissions(), spares, metrics);
        this.sync = SyncEngine.create(SyncSettings.of(config), syncer, metrics, options.syncTuning());
        this.appender = new Appender(state, sync, writer, metrics, config.maxRecordSize(), config.directory().getFileName().toString());
        RecordReader reader = new RecordReader(storage, config.directory(), syncer::durablePosition, retention::discardedBelow);
        spares.readers(reader.mappings()); // before anything is discarded: a mapped file is never made a spare
        this.reads = new LogReads(state, storage, config.directory(), syncer::durablePosition,
                new Replayer(storage, config.replayPolicy(), opened.listener()), reader, maintenance);
        this.jmx = opened.jmx();
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
        LogOpening.Opened opened = LogOpening.prepare(Objects.requireNonNull(config, "config"), Objects.requireNonNull(options, "options"));
        try {
            return new CommitLog(config, options, opened);
        } catch (IOException | RuntimeException | Error e) {
            opened.abandon();
            throw e;
        }
    }

    /** Appends {@code length} bytes of {@code bytes} from {@code offset}; returns the record's position. */
    public long append(byte[] bytes, int offset, int length) {
        return appender.append(bytes, offset, length, Ack.MODE);
    }

    /**
     * Appends {@code length} bytes of {@code bytes} from {@code offset}, returning when the record
     * is as durable as {@code ack} asks, whatever the sync mode; returns the record's position.
     */
    public long append(byte[] bytes, int offset, int length, Ack ack) {
        return appender.append(bytes, offset, length, ack);
    }

    /** Appends {@code record}'s remaining bytes (its position is left unchanged); returns the record's position. */
    public long append(ByteBuffer record) {
        return appender.append(record, Ack.MODE);
    }

    /**
     * Appends {@code record}'s remaining bytes (its position is left unchanged), returning when the
     * record is as durable as {@code ack} asks, whatever the sync mode; returns the record's position.
     */
    public long append(ByteBuffer record, Ack ack) {
        return appender.append(record, ack);
    }

    /**
     * Appends {@code record} encoded by {@code codec} straight into the segment's memory (see
     * {@link RecordCodec}); returns its position once it is as durable as the sync mode promises.
     *
     * @throws dev.commitlog.codec.RecordEncodingException if the codec failed; nothing was logged
     */
    public <T> long append(T record, RecordCodec<T> codec) {
        return appender.append(record, codec, Ack.MODE);
    }

    /** As {@link #append(Object, RecordCodec)}, returning when the record is as durable as {@code ack} asks. */
    public <T> long append(T record, RecordCodec<T> codec, Ack ack) {
        return appender.append(record, codec, ack);
    }

    /**
     * Appends without waiting: returns the record's position at once, and tells {@code callback}
     * on the completion thread, in position order, after the flush that covers the record (in a
     * Periodic log: the next periodic flush). Allocates nothing: one callback object may serve
     * every append. A thread may have {@link #MAX_ASYNC_IN_FLIGHT_PER_THREAD} appends in flight;
     * past that, this call waits for completions.
     */
    public long appendAsync(byte[] bytes, int offset, int length, AppendCallback callback) {
        return appender.appendAsync(bytes, offset, length, Objects.requireNonNull(callback, "callback"));
    }

    /** As {@link #appendAsync(byte[], int, int, AppendCallback)}, completing a future with the position. */
    public CompletableFuture<Long> appendAsync(byte[] bytes, int offset, int length) {
        CompletableFuture<Long> future = new CompletableFuture<>();
        appender.appendAsync(bytes, offset, length, future);
        return future;
    }

    /**
     * As {@link #appendAsync(byte[], int, int, AppendCallback)}, for {@code record}'s remaining
     * bytes (its position is left unchanged; the bytes are copied before this returns).
     */
    public long appendAsync(ByteBuffer record, AppendCallback callback) {
        return appender.appendAsync(record, Objects.requireNonNull(callback, "callback"));
    }

    /** As {@link #appendAsync(ByteBuffer, AppendCallback)}, completing a future with the position. */
    public CompletableFuture<Long> appendAsync(ByteBuffer record) {
        CompletableFuture<Long> future = new CompletableFuture<>();
        appender.appendAsync(record, future);
        return future;
    }

    /** As {@link #appendAsync(byte[], int, int, AppendCallback)}, for {@code record} encoded by {@code codec}. */
    public <T> long appendAsync(T record, RecordCodec<T> codec, AppendCallback callback) {
        return appender.appendAsync(record, codec, Objects.requireNonNull(callback, "callback"), null);
    }

    /**
     * As {@link #appendAsync(Object, RecordCodec, AppendCallback)}, handing {@code record} back to
     * {@code callback} with its position, so that one callback object serves every append with no
     * capturing lambda (see {@link TypedAppendCallback}). The log holds a reference to
     * {@code record} until the callback ran.
     */
    public <T> long appendAsync(T record, RecordCodec<T> codec, TypedAppendCallback<? super T> callback) {
        return appender.appendAsync(record, codec, Objects.requireNonNull(callback, "callback"), record);
    }

    /** As {@link #appendAsync(Object, RecordCodec, AppendCallback)}, completing a future with the position. */
    public <T> CompletableFuture<Long> appendAsync(T record, RecordCodec<T> codec) {
        CompletableFuture<Long> future = new CompletableFuture<>();
        appender.appendAsync(record, codec, future, null);
        return future;
    }

    /** The most records one {@link #appendBatch(byte[][], long[], Ack)} call takes. */
    public static final int MAX_BATCH = Appender.MAX_BATCH;

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
        return appender.appendBatch(records, positionsOut, ack);
    }

    /**
     * Zero-copy append: reserves {@code length} bytes and returns them as Chronicle {@code Bytes}
     * in the segment's memory; write exactly {@code length} bytes, then {@link AppendClaim#commit()}.
     */
    public Bytes<?> claim(int length, AppendClaim claim) {
        return appender.claim(length, claim);
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
        reads.replay(fromPosition, Objects.requireNonNull(handler, "handler"));
    }

    /**
     * As {@link #replay(long, RecordHandler)}, each record as a Chronicle {@code Bytes} view on the
     * mapped segment (see {@link BytesRecordHandler}).
     */
    public void replayBytes(long fromPosition, BytesRecordHandler handler) {
        reads.replayBytes(fromPosition, Objects.requireNonNull(handler, "handler"));
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
        return reads.tailer(fromPosition);
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
        return reads.readAt(position);
    }

    /**
     * As {@link #readAt(long)}, copying the record into {@code into} at its position, which
     * advances past it; returns the record's length. Allocates nothing once the segment is mapped.
     *
     * @throws IllegalArgumentException also if the record is longer than {@code into.remaining()}
     *                                  (the message gives its length); {@code into} is then unchanged
     */
    public int readAt(long position, ByteBuffer into) {
        return reads.readAt(position, Objects.requireNonNull(into, "into"));
    }

    /**
     * As {@link #readAt(long)}, handing the record to {@code handler} as a read-only view on the
     * mapped segment, valid only during the call (see {@link RecordHandler}); copies nothing.
     */
    public void readAt(long position, RecordHandler handler) {
        reads.readAt(position, Objects.requireNonNull(handler, "handler"));
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
        state.checkOpen();
        try {
            retention.discardUpTo(position);
        } catch (IOException e) {
            throw new UncheckedIOException("discarding " + config.directory() + " up to " + position + " failed: " + e.getMessage(), e);
        }
    }

    /** Returns when everything appended before the call is durable, whatever the sync mode. */
    public void sync() {
        appender.sync();
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
        if (!state.beginClose()) {
            return;
        }
        sync.close();
        appender.close(); // after the sync service's last flush: completes what it covered, fails the rest
        storage.close(); // an allocator waiting for space gives up, so the writer can stop
        writer.close();
        lifecycle.close();
        reads.close();
        state.closeFinished();
        if (jmx != null) {
            jmx.close();
        }
        try {
            lock.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not release the lock on " + config.directory(), e);
        }
    }
}
