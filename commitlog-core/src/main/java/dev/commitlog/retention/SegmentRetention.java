package dev.commitlog.retention;

import dev.commitlog.io.StorageLayer;
import dev.commitlog.replay.LogPositions;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentRef;
import dev.commitlog.segment.SpareSegments;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * Decides which segment files {@code discardUpTo} deletes, now or later (a deleted file becomes a
 * spare for reuse when {@link SpareSegments} has room and no reader maps it). A file is deleted when all
 * of these hold: it lies wholly below the highest position ever passed to {@code discardUpTo} and
 * below the durable position; the sync thread has left it (no writer or flush touches it again);
 * and the archive listener, if there is one, has finished with it. A discard that asks for more
 * than can go now is remembered: the rest goes when a segment completes or an archive finishes
 * ({@link #deleteEligible}, called by {@link SegmentLifecycle}).
 *
 * <p>Assumptions and guarantees: every method runs under {@code lock}, the lock replay also holds,
 * so a replay never finds a file gone half-way, and only this class deletes segment files while the
 * log is open. Files are deleted oldest first and the walk stops at the first one that must stay,
 * so the files left form a contiguous range of the log (damaged files apart).
 */
public final class SegmentRetention {
    private final StorageLayer storage;
    private final Path directory;
    private final LongSupplier durablePosition;
    private final LongSupplier syncingSegmentId;
    private final SpareSegments spares;
    private final Object lock;
    /** Segment ids below this are archived (or need no archiving). */
    private volatile long archivedBelow;
    /** The highest position passed to discardUpTo; guarded by lock. */
    private long requested;
    /**
     * The end of the oldest segment file left by the last walk, or 0 when unknown; guarded by lock.
     * While the discard limit is below it nothing can go, so the walk (a directory listing) is skipped:
     * most segment completions then cost nothing here.
     */
    private long oldestEnd;
    /**
     * Every position below this lies in a deleted segment file. Raised before the file is deleted,
     * so a reader that sees a position at or above it finds the file (or a mapping of it) still there.
     */
    private volatile long discardedBelow;

    /**
     * @param syncingSegmentId the id of the segment the sync thread works on (it and later ones stay)
     * @param archivedBelow    the first segment id not archived yet; {@code Long.MAX_VALUE} without archiving
     * @param spares           where a deleted file goes when it can be reused
     * @param lock             the lock replay holds while it reads segment files
     */
    public SegmentRetention(StorageLayer storage, Path directory, LongSupplier durablePosition, LongSupplier syncingSegmentId,
                            long archivedBelow, SpareSegments spares, Object lock) {
        this.storage = storage;
        this.directory = directory;
        this.durablePosition = durablePosition;
        this.syncingSegmentId = syncingSegmentId;
        this.archivedBelow = archivedBelow;
        this.spares = spares;
        this.lock = lock;
    }

    /** Every log position below this was in a segment file that has been deleted (0 before any deletion). */
    public long discardedBelow() {
        return discardedBelow;
    }

    /**
     * Everything below {@code position} is persisted elsewhere: delete what may go now, the rest
     * later. The remembered discard is applied to every segment that completes from now on, so it
     * must never exceed the durable position of the call: a higher one would delete records
     * acknowledged after it.
     *
     * @throws IllegalArgumentException if {@code position} is negative or past the durable position; nothing changes
     */
    public void discardUpTo(long position) throws IOException {
        LogPositions.requireAtMostDurable(position, durablePosition.getAsLong(), "a discard may only reach durable "
                + "records, since it also applies to segments that complete later (discard up to durablePosition(), "
                + "or call sync() first)");
        synchronized (lock) {
            requested = Math.max(requested, position);
            deleteEligible();
        }
    }

    /** The archive listener finished with segment {@code id} (and, archiving in order, every earlier one). */
    void archived(long id) throws IOException {
        archivedBelow = id + 1;
        deleteEligible();
    }

    /** Deletes every file that may go now, oldest first, then syncs the directory once. */
    void deleteEligible() throws IOException {
        synchronized (lock) {
            long limit = Math.min(requested, durablePosition.getAsLong());
            if (limit < oldestEnd) {
                return;
            }
            long keepFrom = Math.min(syncingSegmentId.getAsLong(), archivedBelow);
            boolean deleted = false;
            oldestEnd = 0;
            for (SegmentRef ref : SegmentRef.list(storage, directory)) {
                if (ref.id() >= keepFrom) {
                    break; // still written, flushed or not yet archived: look again when that changes
                }
                SegmentHeader header = ref.readHeader(storage);
                if (header == null) {
                    continue; // damaged files are left for an operator to inspect
                }
                if (header.endPosition() > limit) {
                    oldestEnd = header.endPosition();
                    break;
                }
                discardedBelow = Math.max(discardedBelow, header.endPosition());
                spares.retire(ref, header);
                deleted = true;
            }
            if (deleted) {
                storage.syncDirectory(directory);
            }
        }
    }
}
