package dev.commitlog.replay;

import dev.commitlog.BytesRecordHandler;
import dev.commitlog.CorruptionListener;
import dev.commitlog.RecordHandler;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.VanillaBytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays records to a {@link RecordHandler} (a read-only {@code ByteBuffer} view) or a
 * {@link BytesRecordHandler} (a Chronicle {@code Bytes} view): each verified record in position
 * order, as a window on the mapped segment (no copy), one view re-pointed at each record. Nothing past the durable
 * position at the start of the call is returned, so replay never shows data a crash could take
 * back; below it every frame must verify, and damage is handled by the {@link ReplayPolicy}.
 * A long replay logs its progress at INFO every few seconds, and a summary when done.
 */
public final class Replayer {
    private final StorageLayer storage;
    private final ReplayPolicy policy;
    private final CorruptionListener listener;
    private final Logger progressLogger;
    private final LongSupplier nanoClock;
    private final long progressIntervalNanos;

    public Replayer(StorageLayer storage, ReplayPolicy policy, CorruptionListener listener) {
        this(storage, policy, listener, LoggerFactory.getLogger(Replayer.class), System::nanoTime, ReplayProgress.DEFAULT_INTERVAL_NANOS);
    }

    /** Tests choose where progress goes, the clock and the interval between progress lines. */
    Replayer(StorageLayer storage, ReplayPolicy policy, CorruptionListener listener, Logger progressLogger, LongSupplier nanoClock,
             long progressIntervalNanos) {
        this.storage = storage;
        this.policy = policy;
        this.listener = listener;
        this.progressLogger = progressLogger;
        this.nanoClock = nanoClock;
        this.progressIntervalNanos = progressIntervalNanos;
    }

    /** Replays records with {@code from <= position < durableLimit} as {@code ByteBuffer}s; returns how many. */
    public long replay(Path directory, long from, long durableLimit, RecordHandler handler) throws IOException {
        return walk(directory, from, durableLimit, new BufferVisitor(handler));
    }

    /** Replays records with {@code from <= position < durableLimit} as Chronicle {@code Bytes}; returns how many. */
    public long replayBytes(Path directory, long from, long durableLimit, BytesRecordHandler handler) throws IOException {
        return walk(directory, from, durableLimit, new BytesVisitor(handler));
    }

    private long walk(Path directory, long from, long durableLimit, CountingVisitor visitor) throws IOException {
        ReplayProgress progress = new ReplayProgress(progressLogger, "commit log replay of " + directory, nanoClock, progressIntervalNanos);
        LogWalker.End end = new LogWalker(storage, policy, listener).reportingProgress(progress).requiringFrameStartAtFrom()
                .walk(SegmentRef.list(storage, directory), from, durableLimit, durableLimit, visitor);
        progress.finishReplay(end.position(), visitor.count, from);
        return visitor.count;
    }

    private abstract static class CountingVisitor implements FrameVisitor {
        long count;
    }

    /** Re-points one read-only ByteBuffer view per segment at each record: no allocation per record. */
    private static final class BufferVisitor extends CountingVisitor {
        private final RecordHandler handler;
        private ByteBuffer view;

        BufferVisitor(RecordHandler handler) {
            this.handler = handler;
        }

        @Override
        public void onSegment(SegmentRef ref, SegmentHeader header, ByteBuffer segmentBytes) {
            ByteOrder order = view == null ? ByteOrder.BIG_ENDIAN : view.order(); // kept across segments
            view = segmentBytes.asReadOnlyBuffer().order(order);
        }

        @Override
        public void onRecord(long position, ByteBuffer segmentBytes, int payloadOffset, int payloadLength) {
            RecordViews.point(view, payloadOffset, payloadLength);
            count++;
            handler.onRecord(position, view);
        }
    }

    /** Re-points one reusable Bytes view at each record: no allocation per record. */
    private static final class BytesVisitor extends CountingVisitor {
        private final VanillaBytes<Void> view = VanillaBytes.vanillaBytes();
        private final BytesRecordHandler handler;
        private BytesStore<?, ?> segmentStore;

        BytesVisitor(BytesRecordHandler handler) {
            this.handler = handler;
        }

        @Override
        public void onSegment(SegmentRef ref, SegmentHeader header, ByteBuffer segmentBytes) {
            segmentStore = BytesStore.wrap(segmentBytes);
        }

        @Override
        public void onRecord(long position, ByteBuffer segmentBytes, int payloadOffset, int payloadLength) {
            RecordViews.point(view, segmentStore, payloadOffset, payloadLength);
            count++;
            handler.onRecord(position, view);
        }
    }
}
