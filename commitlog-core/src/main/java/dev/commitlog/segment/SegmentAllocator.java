package dev.commitlog.segment;

import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.instrument.MetricsRecorder;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Prepares the next segment in the background (a spare file reused, or a new one created
 * zero-filled; synced, given its writer memory, its pages touched) so that rolling over does not stall appenders on
 * file creation. After an open, the first one may be the
 * file recovery found already prepared ({@link #reuse}): a clean reopen then writes no new segment.
 *
 * <p>Assumptions and guarantees: {@link #takeAfter} is called under the writer's rollover lock,
 * one caller at a time, with segments in order. A failed preparation (disk full, say) is thrown
 * to the appender that needed the segment, and the next call tries again, so appends succeed
 * again once space is freed.
 */
final class SegmentAllocator implements AutoCloseable {
    private final StorageLayer storage;
    private final Path directory;
    private final int segmentSize;
    private final Set<PosixFilePermission> permissions;
    private final SpareSegments spares;
    private final MetricsRecorder metrics;
    private final ExecutorService executor;
    /** The segment being prepared to follow {@link #preparedAfter}; null after a failure. */
    private Future<Segment> pending;
    private long preparedAfter = -1;

    SegmentAllocator(StorageLayer storage, Path directory, int segmentSize, Set<PosixFilePermission> permissions, SpareSegments spares,
                     MetricsRecorder metrics) {
        this.storage = storage;
        this.directory = directory;
        this.segmentSize = segmentSize;
        this.permissions = permissions;
        this.spares = spares;
        this.metrics = metrics;
        this.executor = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "commitlog-segment-allocator");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts preparing the segment that will follow {@code segment}. */
    void prepareAfter(Segment segment) {
        long id = segment.id() + 1;
        long base = segment.endPosition();
        preparedAfter = segment.id();
        pending = executor.submit(() -> create(id, base));
    }

    /**
     * Starts with a segment that already exists to follow {@code segment}: recovery found it
     * prepared, every byte past its header zero on the device. Only the pretouch is left to do.
     */
    void reuse(Segment segment, Segment prepared) {
        if (prepared.id() != segment.id() + 1 || prepared.basePosition() != segment.endPosition()) {
            throw new IllegalArgumentException("segment " + prepared.id() + " at position " + prepared.basePosition()
                    + " cannot follow segment " + segment.id() + ", which ends at position " + segment.endPosition());
        }
        preparedAfter = segment.id();
        pending = executor.submit(() -> {
            prepared.pretouch();
            return prepared;
        });
    }

    /** The segment that follows {@code full}, waiting for it if it is not ready yet. */
    Segment takeAfter(Segment full) throws IOException {
        if (pending == null || preparedAfter != full.id()) {
            prepareAfter(full);
        }
        try {
            Segment next = pending.get();
            prepareAfter(next);
            return next;
        } catch (ExecutionException e) {
            pending = null;
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw new IOException("cannot create segment " + SegmentDescriptor.fileName(full.id() + 1)
                        + " in " + directory + ": " + io.getMessage(), io);
            }
            throw new IOException("cannot create segment in " + directory, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a new segment");
        }
    }

    private Segment create(long id, long basePosition) throws IOException {
        Path path = directory.resolve(SegmentDescriptor.fileName(id));
        SpareSegments.Spare spare = spares.take();
        if (spare == null) {
            SegmentFile file = storage.create(path, segmentSize, SegmentHeader.encode(id, basePosition, segmentSize), permissions);
            metrics.segmentCreated();
            Segment segment = new Segment(id, basePosition, file, SegmentDescriptor.SEGMENT_HEADER_LENGTH);
            segment.pretouch();
            return segment;
        }
        SegmentFile file = spares.reuse(spare, path, id, basePosition, permissions);
        metrics.segmentRecycled();
        Segment segment = new Segment(id, basePosition, file, SegmentDescriptor.SEGMENT_HEADER_LENGTH);
        segment.pretouch();
        return segment;
    }

    /** Stops preparing; a prepared but unused segment stays on disk (recovery reuses or removes it). */
    @Override
    public void close() {
        executor.shutdown();
        if (pending != null) {
            try {
                pending.get().file().close();
            } catch (ExecutionException | RuntimeException e) {
                // Nothing was created, or creation failed: nothing to release.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
