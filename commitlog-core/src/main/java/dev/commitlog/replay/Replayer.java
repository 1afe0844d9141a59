package dev.commitlog.replay;

import dev.commitlog.RecordHandler;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import dev.commitlog.segment.SegmentHeader;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.VanillaBytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays records to a {@link RecordHandler}: each verified record in position order, handed over
 * as a Chronicle {@code Bytes} window on the mapped segment (no copy). Nothing past the durable
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

    /** Replays records with {@code from <= position < durableLimit}; returns how many. */
    public long replay(Path directory, long from, long durableLimit, RecordHandler handler) throws IOException {
        VanillaBytes<Void> view = VanillaBytes.vanillaBytes();
        RecordVisitor visitor = new RecordVisitor(view, handler);
        ReplayProgress progress = new ReplayProgress(progressLogger, "commit log replay of " + directory, nanoClock, progressIntervalNanos);
        LogWalker.End end = new LogWalker(storage, policy, listener).reportingProgress(progress)
                .walk(SegmentRef.list(storage, directory), from, durableLimit, durableLimit, visitor);
        progress.finish(end.position());
        return visitor.count;
    }

    /** Re-points one reusable Bytes view at each record: no allocation per record. */
    private static final class RecordVisitor implements FrameVisitor {
        private final VanillaBytes<Void> view;
        private final RecordHandler handler;
        private BytesStore<?, ?> segmentStore;
        private long count;

        RecordVisitor(VanillaBytes<Void> view, RecordHandler handler) {
            this.view = view;
            this.handler = handler;
        }

        @Override
        public void onSegment(SegmentRef ref, SegmentHeader header, ByteBuffer segmentBytes) {
            segmentStore = BytesStore.wrap(segmentBytes);
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public void onRecord(long position, ByteBuffer segmentBytes, int payloadOffset, int payloadLength) {
            view.bytesStore((BytesStore) segmentStore, payloadOffset, payloadLength);
            view.readLimit(payloadOffset + payloadLength);
            view.readPosition(payloadOffset);
            count++;
            handler.onRecord(position, view);
        }
    }
}
