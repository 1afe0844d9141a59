package dev.commitlog.segment;

import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discarded segment files kept to become new segments ({@code commitlog_recycle_segments}):
 * retention retires a file here instead of deleting it, and the allocator takes the oldest one when
 * it prepares a segment. A reused file gets a new header whose salt is one above its last
 * ({@link SegmentHeader#nextSalt}); every frame checksum folds the salt in, so no frame of its
 * former life verifies in the new one, and nothing past the header is written until records are.
 *
 * <p>Assumptions and guarantees: at most {@code limit} spares exist, each {@code segmentSize}
 * bytes (others are deleted when found). A file is retired only while no reader in this process
 * maps it ({@link SegmentReaders}); otherwise it is deleted, as it is when the spares are full.
 * {@link #retire} and {@link #take} are thread-safe: retention runs on the lifecycle thread or on a
 * caller of {@code discardUpTo}, the allocator on its own thread.
 */
public final class SpareSegments {
    private static final Logger LOG = LoggerFactory.getLogger(SpareSegments.class);

    /** A spare file and the salt its next life takes. */
    public record Spare(Path path, int nextSalt) {
    }

    private final StorageLayer storage;
    private final Path directory;
    private final int limit;
    private final int segmentSize;
    /**
     * Whether the files in the directory leave room for one more segment in commitlog_total_space.
     * A spare is kept only then: spares count in the budget, and an allocator waiting for space
     * must be able to get it from a discard, never find it held by spares it could not take.
     */
    private final BooleanSupplier roomForOneMore;
    /** Oldest first; guarded by this. */
    private final ArrayDeque<Spare> spares = new ArrayDeque<>();
    private volatile SegmentReaders readers = SegmentReaders.NONE;

    private SpareSegments(StorageLayer storage, Path directory, int limit, int segmentSize, BooleanSupplier roomForOneMore) {
        this.storage = storage;
        this.directory = directory;
        this.limit = limit;
        this.segmentSize = segmentSize;
        this.roomForOneMore = roomForOneMore;
    }

    /** No spares: every discarded file is deleted, every segment created new. */
    public static SpareSegments none(StorageLayer storage, Path directory, int segmentSize) {
        return new SpareSegments(storage, directory, 0, segmentSize, () -> false);
    }

    /**
     * The spares in {@code directory}, oldest first: files named {@code commitlog-<id>.recycle}
     * whose header verifies (whatever id it names: a crash may have left a new header under the
     * spare's name) and whose size is {@code segmentSize}. The others, and those past
     * {@code limit}, are deleted (and the directory synced).
     */
    public static SpareSegments open(StorageLayer storage, Path directory, int limit, int segmentSize, BooleanSupplier roomForOneMore)
            throws IOException {
        SpareSegments found = new SpareSegments(storage, directory, limit, segmentSize, roomForOneMore);
        List<Path> files = new ArrayList<>();
        for (Path file : storage.list(directory)) {
            if (SegmentDescriptor.parseRecycledId(file.getFileName().toString()) >= 0) {
                files.add(file);
            }
        }
        files.sort(null);
        boolean deleted = false;
        for (Path file : files) {
            SegmentHeader header = found.spares.size() < limit ? headerOf(storage, file) : null;
            if (header == null || header.segmentSize() != segmentSize) {
                LOG.info("commit log {}: deleting {}: {}", directory, file.getFileName(), header == null
                        ? (limit == 0 ? "commitlog_recycle_segments is 0" : "not a spare this log can reuse")
                        : "its size is not commitlog_segment_size");
                storage.delete(file);
                deleted = true;
            } else {
                found.spares.add(new Spare(file, header.nextSalt()));
            }
        }
        if (deleted) {
            storage.syncDirectory(directory);
        }
        return found;
    }

    /** The readers whose mappings keep a discarded file from becoming a spare; set before the log opens for appends. */
    public void readers(SegmentReaders readers) {
        this.readers = readers;
    }

    /**
     * Retention's step for a segment whose records are all discarded: keeps its file as a spare
     * when there is room and no reader maps it, else deletes it. The caller syncs the directory.
     */
    public void retire(SegmentRef ref, SegmentHeader header) throws IOException {
        Path spare = directory.resolve(SegmentDescriptor.recycledName(ref.id()));
        synchronized (this) {
            if (spares.size() < limit && header.segmentSize() == segmentSize && roomForOneMore.getAsBoolean()) {
                Retirement retirement = new Retirement(ref.path(), spare);
                if (readers.runIfUnmapped(ref.id(), retirement)) {
                    if (retirement.kept) {
                        spares.add(new Spare(spare, header.nextSalt()));
                    }
                    return; // kept, or deleted by a storage layer that does not reuse files
                }
            }
        }
        storage.delete(ref.path());
    }

    /** The oldest spare, no longer counted here, or null when there is none. */
    public synchronized Spare take() {
        return spares.pollFirst();
    }

    /** Makes {@code spare} segment {@code id} at {@code basePosition}, with the spare's next salt ({@link StorageLayer#reuse}). */
    SegmentFile reuse(Spare spare, Path path, long id, long basePosition, Set<PosixFilePermission> permissions) throws IOException {
        ByteBuffer header = SegmentHeader.encode(id, basePosition, segmentSize, spare.nextSalt());
        return storage.reuse(spare.path(), path, segmentSize, header, permissions);
    }

    private static SegmentHeader headerOf(StorageLayer storage, Path file) throws IOException {
        try (SegmentFile opened = storage.open(file, false)) {
            ByteBuffer bytes = opened.buffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
            if (opened.size() < SegmentDescriptor.SEGMENT_HEADER_LENGTH) {
                return null;
            }
            return SegmentHeader.decode(bytes, bytes.getLong(SegmentDescriptor.SEGMENT_ID_OFFSET), opened.size());
        } catch (SegmentHeaderException e) {
            return null;
        }
    }

    /** The rename, run while no reader maps the file. */
    private final class Retirement implements SegmentReaders.FileAction {
        private final Path segment;
        private final Path spare;
        boolean kept;

        Retirement(Path segment, Path spare) {
            this.segment = segment;
            this.spare = spare;
        }

        @Override
        public void run() throws IOException {
            kept = storage.retire(segment, spare);
        }
    }
}
