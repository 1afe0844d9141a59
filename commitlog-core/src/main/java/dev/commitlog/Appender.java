package dev.commitlog;

import dev.commitlog.async.AsyncCompletions;
import dev.commitlog.codec.RecordCodec;
import dev.commitlog.instrument.MetricsRecorder;
import dev.commitlog.segment.FrameWriter;
import dev.commitlog.segment.SegmentWriter;
import dev.commitlog.sync.SyncService;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import net.openhft.chronicle.bytes.Bytes;

/**
 * The append path behind {@link CommitLog}'s append methods: the checks every append makes (open,
 * not failed, not too large), framing through the calling thread's {@link FrameWriter}, the
 * registration of an asynchronous completion before the record is published, and the wait its
 * {@link Ack} asks for. Nothing is allocated per append: each thread's state is made once
 * ({@link AppendContext}).
 */
final class Appender implements AppendClaim.Acknowledger {
    /** See {@link CommitLog#MAX_BATCH}. */
    static final int MAX_BATCH = 256;
    /** See {@link CommitLog#MAX_ASYNC_IN_FLIGHT_PER_THREAD}. */
    static final int MAX_ASYNC_IN_FLIGHT_PER_THREAD = 1 << 16;

    private final OpenState state;
    private final SyncService sync;
    private final SegmentWriter segments;
    private final MetricsRecorder metrics;
    private final int maxRecordSize;
    /**
     * Each appending thread's context. Invariant: nothing reachable from a context reaches this
     * appender or the log. A thread's map holds the context strongly and this ThreadLocal (its key)
     * only weakly, so a path back to the key would keep a closed log, and every thread's ring of
     * completions, alive for as long as the thread lives (ClosedLogReleaseTest).
     */
    private final ThreadLocal<AppendContext> contexts;
    private final AsyncCompletions completions;

    Appender(OpenState state, SyncService sync, SegmentWriter segments, MetricsRecorder metrics, int maxRecordSize, String name) {
        this.state = state;
        this.sync = sync;
        this.segments = segments;
        this.metrics = metrics;
        this.maxRecordSize = maxRecordSize;
        this.contexts = ThreadLocal.withInitial(() -> new AppendContext(metrics));
        this.completions = new AsyncCompletions(sync, MAX_ASYNC_IN_FLIGHT_PER_THREAD, name);
    }

    long append(byte[] bytes, int offset, int length, Ack ack) {
        return acknowledge(write(bytes, offset, length, null), ack);
    }

    long append(ByteBuffer record, Ack ack) {
        return acknowledge(write(record, null), ack);
    }

    <T> long append(T record, RecordCodec<T> codec, Ack ack) {
        return acknowledge(write(record, codec, null), ack);
    }

    /** {@code completion}: an AppendCallback or a CompletableFuture (see AsyncCompletions). */
    long appendAsync(byte[] bytes, int offset, int length, Object completion) {
        return submitted(write(bytes, offset, length, completion));
    }

    long appendAsync(ByteBuffer record, Object completion) {
        return submitted(write(record, completion));
    }

    /** {@code attachment}: the record a TypedAppendCallback is handed back, else null. */
    <T> long appendAsync(T record, RecordCodec<T> codec, Object completion, Object attachment) {
        AppendContext context = contexts.get();
        context.attachment = attachment;
        try {
            return submitted(write(record, codec, completion));
        } finally {
            context.attachment = null;
        }
    }

    /** See {@link CommitLog#appendBatch(byte[][], long[], Ack)}. */
    long appendBatch(byte[][] records, long[] positionsOut, Ack ack) {
        Objects.requireNonNull(ack, "ack");
        state.checkOpen();
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
            checkSize(record.length);
        }
        AppendContext context = null;
        for (int i = 0; i < count; i++) {
            if (context != null) {
                context.metrics.appendCompleted(); // each record counts as one append; only the last waits
            }
            byte[] record = records[i];
            context = write(record, 0, record.length, null);
            positionsOut[i] = context.frame.position();
        }
        return acknowledge(context, ack);
    }

    /** See {@link CommitLog#claim(int, AppendClaim)}. */
    Bytes<?> claim(int length, AppendClaim claim) {
        if (claim.active()) {
            throw new IllegalStateException("this AppendClaim is still open: commit or abort it first");
        }
        checkAppendable(length);
        contexts.get().metrics.appendStarted();
        claimFrame(claim.frame, length);
        return claim.begin(this, length);
    }

    /** An {@link AppendClaim} was committed: waits as the sync mode asks, in the committing thread. */
    @Override
    public long acknowledge(long position, long endPosition) {
        return acknowledge(contexts.get(), position, endPosition, Ack.MODE);
    }

    /** Returns when everything claimed before the call is durable. */
    void sync() {
        state.checkOpen();
        sync.syncUpTo(segments.claimedPosition(), contexts.get().waiter);
    }

    /** After the sync service's last flush: completes what it covered, fails the rest. */
    void close() {
        completions.close();
        contexts.remove(); // the closing thread's context; other threads' go stale once the log is unreachable
    }

    private AppendContext write(byte[] bytes, int offset, int length, Object completion) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        AppendContext context = begin(length, completion);
        context.frame.write(bytes, offset, length);
        return commit(context, completion);
    }

    private AppendContext write(ByteBuffer record, Object completion) {
        AppendContext context = begin(record.remaining(), completion);
        context.frame.write(record);
        return commit(context, completion);
    }

    private <T> AppendContext write(T record, RecordCodec<T> codec, Object completion) {
        Objects.requireNonNull(codec, "codec");
        int bound = codec.maxEncodedLength(record);
        if (bound == RecordCodec.UNKNOWN_LENGTH) {
            state.checkOpen();
            return write(contexts.get().frame.stage(record, codec, maxRecordSize), completion);
        }
        if (bound < 0) {
            throw new IllegalArgumentException(codec + ".maxEncodedLength returned " + bound
                    + ", not a length nor RecordCodec.UNKNOWN_LENGTH; nothing was written");
        }
        AppendContext context = begin(bound, completion);
        context.frame.encode(record, codec); // aborts the claim and throws if the codec fails
        return commit(context, completion);
    }

    /** Checks, counts and claims; a completion's ring must have room before the claim (see Submitter.awaitSpace). */
    private AppendContext begin(int length, Object completion) {
        checkAppendable(length);
        AppendContext context = contexts.get();
        context.metrics.appendStarted();
        if (completion != null) {
            if (context.submitter == null) {
                context.submitter = completions.register();
            }
            context.submitter.awaitSpace();
        }
        claimFrame(context.frame, length);
        return context;
    }

    /** Registers the completion before the record is published (see AsyncCompletions), then publishes it. */
    private static AppendContext commit(AppendContext context, Object completion) {
        if (completion != null) {
            context.registerCompletion(completion);
        }
        context.frame.commit();
        return context;
    }

    private void claimFrame(FrameWriter frame, int length) {
        try {
            frame.claim(segments, length);
        } catch (IOException e) {
            throw new CommitLogException("append refused, nothing written: " + e.getMessage(), e);
        }
    }

    private void checkAppendable(int length) {
        state.checkOpen();
        checkSize(length);
        RuntimeException failure = sync.failure();
        if (failure != null) {
            throw failure;
        }
    }

    private void checkSize(int length) {
        if (length > maxRecordSize) {
            metrics.oversizeRejected();
            throw new RecordTooLargeException(length, maxRecordSize);
        }
    }

    /** After an asynchronous append's record is published: asks for its flush and returns at once. */
    private long submitted(AppendContext context) {
        sync.requestSync(context.frame.endPosition());
        context.metrics.appendCompleted(); // the call completed; its durability is the callback's
        return context.frame.position();
    }

    private long acknowledge(AppendContext context, Ack ack) {
        return acknowledge(context, context.frame.position(), context.frame.endPosition(), ack);
    }

    private long acknowledge(AppendContext context, long position, long endPosition, Ack ack) {
        switch (ack) {
            case MODE -> sync.afterAppend(endPosition, context.waiter);
            case DURABLE -> sync.syncUpTo(endPosition, context.waiter);
            case WRITTEN -> sync.requestSync(endPosition);
        }
        context.metrics.appendCompleted();
        return position;
    }
}
