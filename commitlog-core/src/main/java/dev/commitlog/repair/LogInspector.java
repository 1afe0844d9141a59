package dev.commitlog.repair;

import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener;
import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.section.SectionedStorageLayer;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.replay.FrameVisitor;
import dev.commitlog.replay.LogRecovery;
import dev.commitlog.replay.LogWalker;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentHeaderException;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Read-only access to a log directory, for tools and operators: its segment files with their
 * headers, and a walk over every record that meets damage exactly as recovery on open would (the
 * same {@link LogWalker}, the same torn-tail rule, the same policies). Files are mapped read-only
 * and no lock is taken, so a live log can be read too: its files hold only flushed data.
 */
public final class LogInspector {
    /** One segment file: its decoded header, or why the header cannot be trusted ({@code header} is then null). */
    public record SegmentInfo(SegmentRef ref, long fileSize, SegmentHeader header, String headerProblem) {
    }

    /**
     * What a walk found.
     *
     * @param records     verified records walked (also those before {@code from})
     * @param damaged     damaged frames and headers met (reported to the observer)
     * @param endPosition where the log ends as recovery would see it: the first position not read
     * @param tailFrom    the highest durable mark: a bad or unwritten frame at or after it is a torn tail
     * @param stopped     the observer asked to stop; {@code endPosition} is then -1
     */
    public record Summary(long records, long damaged, long endPosition, long tailFrom, boolean stopped) {
    }

    /** Hears what a walk meets, in position order. */
    public interface Observer extends CorruptionListener {
        /** The walk enters a segment whose header verified. */
        default void onSegment(SegmentRef ref, SegmentHeader header) {
        }

        /**
         * A record whose checksum verified.
         *
         * @param payload a read-only view from the payload's first to last byte (absolute indices
         *                are file offsets), valid during this call only
         * @return false to stop the walk
         */
        boolean onRecord(long position, ByteBuffer payload);

        /**
         * Damage met: a torn tail or corruption the policy went past. Ignored unless overridden;
         * an observer that tells them apart overrides the method that carries the {@link Damage} kind.
         */
        @Override
        default void onCorruption(Path file, long offset, long position, String reason, String action) {
        }
    }

    private final StorageLayer storage;

    /** Reads plain and compressed segments; an encrypted one needs {@link #LogInspector(KeyProvider)}. */
    public LogInspector() {
        this((KeyProvider) null);
    }

    /** Reads plain, compressed and encrypted segments, the latter with {@code keys}. */
    public LogInspector(KeyProvider keys) {
        this(new SectionedStorageLayer(new MappedStorageLayer(), Compression.NONE, 0, Encryption.NONE, keys));
    }

    public LogInspector(StorageLayer storage) {
        this.storage = storage;
    }

    /** The segment files in {@code directory}, oldest first, each with its header checked. */
    public List<SegmentInfo> segments(Path directory) throws IOException {
        List<SegmentInfo> infos = new ArrayList<>();
        for (SegmentRef ref : SegmentRef.list(storage, directory)) {
            try (SegmentFile file = storage.open(ref.path(), false)) {
                try {
                    infos.add(new SegmentInfo(ref, file.size(), SegmentHeader.decode(file.buffer(), ref.id(), file.size()), null));
                } catch (SegmentHeaderException e) {
                    infos.add(new SegmentInfo(ref, file.size(), null, e.getMessage()));
                }
            }
        }
        return infos;
    }

    /**
     * Walks the log from {@code from} to its end, as recovery on open reads it under {@code policy}:
     * under {@code SKIP_CORRUPT} every piece of damage is reported and the walk goes on; under the
     * other two the first damage recovery would refuse is thrown.
     *
     * @throws CorruptLogException damage the policy does not let past, with file, offset, position and reason
     */
    public Summary walk(Path directory, long from, ReplayPolicy policy, Observer observer) throws IOException {
        List<SegmentRef> segments = SegmentRef.list(storage, directory);
        long tailFrom = LogRecovery.highestDurableMark(segments, storage);
        LogWalker walker = new LogWalker(storage, policy, observer);
        try {
            LogWalker.End end = walker.walk(segments, from, Long.MAX_VALUE, tailFrom, new ObserverVisitor(observer));
            if (end.insideSegment()) {
                // As recovery does: files after the end are deleted, but a damaged header among them is damage.
                LogRecovery.checkHeadersAfterEnd(segments.subList(end.segmentIndex() + 1, segments.size()), end.position(), policy,
                        observer, storage);
            }
            return new Summary(walker.records(), walker.damaged(), end.position(), tailFrom, false);
        } catch (Stop stop) {
            return new Summary(walker.records(), walker.damaged(), -1, tailFrom, true);
        }
    }

    /** Hands each record to the observer through one read-only view per segment. */
    private static final class ObserverVisitor implements FrameVisitor {
        private final Observer observer;
        private ByteBuffer view;

        ObserverVisitor(Observer observer) {
            this.observer = observer;
        }

        @Override
        public void onSegment(SegmentRef ref, SegmentHeader header, ByteBuffer segmentBytes) {
            view = segmentBytes.asReadOnlyBuffer();
            observer.onSegment(ref, header);
        }

        @Override
        public void onRecord(long position, ByteBuffer segmentBytes, int payloadOffset, int payloadLength) {
            view.limit(payloadOffset + payloadLength).position(payloadOffset);
            if (!observer.onRecord(position, view)) {
                throw Stop.INSTANCE; // unwinds the walk, which closes the segment it holds open
            }
        }
    }

    /** Thrown once per stopped walk, never per record; carries no stack. */
    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final Stop INSTANCE = new Stop();

        private Stop() {
            super(null, null, false, false);
        }
    }
}
