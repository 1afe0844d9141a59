package dev.commitlog;

import static dev.commitlog.record.RecordDescriptor.alignedFrameLength;
import static dev.commitlog.record.RecordDescriptor.frameLength;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.io.DirectoryLock;
import dev.commitlog.io.MappedStorageLayer;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.metrics.CommitLogMetrics;
import dev.commitlog.metrics.MetricsRecorder;
import dev.commitlog.record.FrameChecksum;
import dev.commitlog.replay.CorruptionListener;
import dev.commitlog.replay.LogRecovery;
import dev.commitlog.replay.Replayer;
import dev.commitlog.replay.SegmentRef;
import dev.commitlog.segment.AppendSlot;
import dev.commitlog.segment.Segment;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentHeaderException;
import dev.commitlog.segment.SegmentSyncer;
import dev.commitlog.segment.SegmentWriter;
import dev.commitlog.sync.SyncService;
import dev.commitlog.sync.SyncServices;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.commitlog.async.AsyncCompletions;
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
    private final StorageLayer storage;
    private final DirectoryLock lock;
    private final MetricsRecorder metrics;
    private final SegmentWriter writer;
    private final SegmentSyncer syncer;
    private final SyncService sync;
    private final Replayer replayer;
    private final ThreadLocal<AppendContext> contexts = ThreadLocal.withInitial(AppendContext::new);
    private final Object maintenance = new Object();
    /** Asynchronous appends not yet completed, per submitting thread; bounds what one thread has in flight. */
    public static final int MAX_ASYNC_IN_FLIGHT_PER_THREAD = 1 << 16;
    private volatile AsyncCompletions completions;
    private final AtomicBoolean closed = new AtomicBoolean();

    private CommitLog(CommitLogConfig config, StorageLayer storage, DirectoryLock lock, LogRecovery.Recovered recovered,
                      CorruptionListener listener) {
        this.config = config;
        this.storage = storage;
        this.lock = lock;
        this.metrics = new MetricsRecorder();
        this.syncer = new SegmentSyncer(recovered.tail(), recovered.firstFreeOffset(), metrics, CommitLog::release);
        this.writer = SegmentWriter.start(recovered.tail(), storage, config.directory(), config.segmentSize(),
                config.filePermissions(), metrics);
        this.sync = SyncServices.create(config, syncer, metrics);
        this.replayer = new Replayer(storage, config.replayPolicy(), listener);
        sync.start();
    }

    /** Opens (creating if needed) the log in {@code commitlog_directory}, recovering what is there. */
    public static CommitLog open(CommitLogConfig config) throws IOException {
        return open(config, new MappedStorageLayer(), LOGGING_LISTENER);
    }

    /**
     * Opens the log over a given file layer (tests inject faults through it), telling
     * {@code listener} about damage that the replay policy lets recovery and replay go past.
     */
    public static CommitLog open(CommitLogConfig config, StorageLayer storage, CorruptionListener listener) throws IOException {
        Objects.requireNonNull(config, "config");
        Path directory = config.directory();
        Files.createDirectories(directory);
        DirectoryLock lock = DirectoryLock.acquire(directory);
        try {
            LogRecovery.Recovered recovered = LogRecovery.recover(directory, storage, config.segmentSize(),
                    config.filePermissions(), config.replayPolicy(), listener);
            return new CommitLog(config, storage, lock, recovered, listener);
        } catch (IOException | RuntimeException | Error e) {
            lock.close();
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
        AppendContext context = writeRecord(bytes, offset, length);
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

    private long appendAsyncTo(byte[] bytes, int offset, int length, Object completion) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        checkAppendable(length);
        AppendContext context = contexts.get();
        if (context.submitter == null) {
            context.submitter = completions().register();
        }
        context.submitter.awaitSpace(); // before claiming: see Submitter.awaitSpace
        claimSpace(length, context.slot, context.checksum);
        AppendSlot slot = context.slot;
        Segment segment = slot.segment();
        segment.write(slot.offset(), bytes, offset, length);
        int frameLength = frameLength(length);
        int crc = context.checksum.begin(slot.position(), frameLength).update(bytes, offset, length).value();
        context.submitter.add(slot.position(), slot.endPosition(), completion); // before publishing
        segment.publish(slot.offset(), frameLength, crc);
        sync.requestSync(slot.endPosition());
        return slot.position();
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

    private AppendContext writeRecord(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        AppendContext context = beginAppend(length);
        AppendSlot slot = context.slot;
        Segment segment = slot.segment();
        segment.write(slot.offset(), bytes, offset, length);
        int frameLength = frameLength(length);
        segment.publish(slot.offset(), frameLength, context.checksum.begin(slot.position(), frameLength).update(bytes, offset, length).value());
        return context;
    }

    /** Appends {@code record}'s remaining bytes (its position is left unchanged); returns the record's position. */
    public long append(ByteBuffer record) {
        int length = record.remaining();
        AppendContext context = beginAppend(length);
        AppendSlot slot = context.slot;
        Segment segment = slot.segment();
        segment.write(slot.offset(), record);
        int frameLength = frameLength(length);
        int start = record.position();
        int crc = context.checksum.begin(slot.position(), frameLength).update(record).value();
        record.position(start);
        segment.publish(slot.offset(), frameLength, crc);
        return afterPublish(slot, context, Ack.MODE);
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
        claimSpace(length, claim.slot, claim.checksum);
        return claim.begin(this, length);
    }

    private AppendContext beginAppend(int length) {
        checkAppendable(length);
        AppendContext context = contexts.get();
        claimSpace(length, context.slot, context.checksum);
        return context;
    }

    private void checkAppendable(int length) {
        if (length > config.maxRecordSize()) {
            metrics.oversizeRejected();
            throw new RecordTooLargeException(length, config.maxRecordSize());
        }
        if (closed.get()) {
            throw new IllegalStateException("commit log " + config.directory() + " is closed");
        }
        RuntimeException failure = sync.failure();
        if (failure != null) {
            throw failure;
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

    private long afterPublish(AppendSlot slot, AppendContext context, Ack ack) {
        switch (ack) {
            case MODE -> sync.afterAppend(slot.endPosition(), context.waiter);
            case DURABLE -> sync.syncUpTo(slot.endPosition(), context.waiter);
            case WRITTEN -> sync.requestSync(slot.endPosition());
        }
        return slot.position();
    }

    /**
     * Replays every verified record at or after {@code fromPosition}, in position order, up to the
     * durable position at the time of the call.
     *
     * @throws CorruptLogException on damage the replay policy does not allow past
     */
    public void replay(long fromPosition, RecordHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        synchronized (maintenance) {
            replayer.replay(config.directory(), fromPosition, syncer.durablePosition(), handler);
        }
    }

    /**
     * The caller has persisted everything below {@code position} elsewhere: delete the segment
     * files that lie wholly below it (and below the durable position).
     */
    public void discardUpTo(long position) throws IOException {
        synchronized (maintenance) {
            long limit = Math.min(position, syncer.durablePosition());
            long activeId = syncer.syncingSegment().id();
            boolean deleted = false;
            for (SegmentRef ref : SegmentRef.list(storage, config.directory())) {
                if (ref.id() >= activeId) {
                    break;
                }
                long end;
                try (SegmentFile file = storage.open(ref.path(), false)) {
                    end = SegmentHeader.decode(file.buffer(), ref.id(), file.size()).endPosition();
                } catch (SegmentHeaderException e) {
                    continue; // damaged files are left for an operator to inspect
                }
                if (end > limit) {
                    break;
                }
                storage.delete(ref.path());
                deleted = true;
            }
            if (deleted) {
                storage.syncDirectory(config.directory());
            }
        }
    }

    /** Returns when everything appended before the call is durable, whatever the sync mode. */
    public void sync() {
        sync.syncUpTo(writer.claimedPosition(), contexts.get().waiter);
    }

    /** Everything below this log position is durable. */
    public long durablePosition() {
        return syncer.durablePosition();
    }

    public CommitLogMetrics metrics() {
        return metrics.snapshot(syncer.durablePosition());
    }

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
        writer.close();
        try {
            lock.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not release the lock on " + config.directory(), e);
        }
    }

    /** Unmaps a segment the sync thread has finished with; no appender touches it any more. */
    private static void release(Segment segment) {
        segment.file().close();
    }
}
