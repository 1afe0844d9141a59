package dev.commitlog.segment;

import dev.commitlog.format.FrameChecksum;
import dev.commitlog.instrument.MetricsRecorder;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * The one segment writer that every sync mode shares: it hands out space for frames, in log
 * position order, and rolls over to the next segment when one is full.
 *
 * <p>Assumptions and guarantees: any number of threads may call {@link #claim}. The claim itself is
 * one atomic add on the segment's tail; only a rollover (once per segment) takes a lock, because
 * it may have to wait for the allocator and must happen once. The thread whose claim first
 * overflows a segment writes its end-of-segment marker, so every claimed range is published.
 */
public final class SegmentWriter implements AutoCloseable {
    private final SegmentAllocator allocator;
    private final MetricsRecorder metrics;
    private final Object rolloverLock = new Object();
    private volatile Segment current;

    private SegmentWriter(Segment first, Segment prepared, SegmentAllocator allocator, MetricsRecorder metrics) {
        this.current = first;
        this.allocator = allocator;
        this.metrics = metrics;
        if (prepared != null) {
            allocator.reuse(first, prepared);
        } else {
            allocator.prepareAfter(first);
        }
    }

    /**
     * A writer that appends to {@code first} (a new segment, or the recovered tail) and creates the
     * segments after it in {@code directory} (from {@code spares} while there are any), starting
     * with {@code prepared} if recovery found the next one already made (null if not).
     */
    public static SegmentWriter start(Segment first, Segment prepared, StorageLayer storage, Path directory, int segmentSize,
                                      Set<PosixFilePermission> permissions, SpareSegments spares, MetricsRecorder metrics) {
        return new SegmentWriter(first, prepared, new SegmentAllocator(storage, directory, segmentSize, permissions, spares, metrics),
                metrics);
    }

    /**
     * Claims {@code alignedLength} bytes for a frame and fills in {@code slot}. The caller must
     * publish the frame (record or aborted claim) exactly once.
     *
     * @param checksum the caller's checksum helper, used if this claim has to seal the segment
     * @throws IOException if a new segment was needed and could not be created
     */
    public void claim(int alignedLength, AppendSlot slot, FrameChecksum checksum) throws IOException {
        for (;;) {
            Segment segment = current;
            if (segment.overBudget(alignedLength)) {
                // Sectioned: what this claim adds might not fit in the file once stored; end the segment here.
                segment.seal(checksum);
                rollOver(segment);
                continue;
            }
            long offset = segment.claim(alignedLength);
            int limit = segment.recordLimit();
            if (offset + alignedLength <= limit) {
                slot.segment = segment;
                slot.offset = offset;
                slot.position = segment.basePosition() + offset;
                slot.alignedLength = alignedLength;
                return;
            }
            if (offset <= limit) {
                // The first claim past the limit: the marker space reserved at the end is ours.
                segment.writeEndMarker(offset, checksum);
            }
            rollOver(segment);
        }
    }

    private void rollOver(Segment full) throws IOException {
        synchronized (rolloverLock) {
            if (current != full) {
                return;
            }
            long started = System.nanoTime();
            Segment next = allocator.takeAfter(full);
            metrics.waitedForSegment(System.nanoTime() - started);
            full.next(next);
            current = next;
        }
    }

    /** The segment being appended to now. */
    public Segment current() {
        return current;
    }

    /**
     * The log position just past every frame claimed so far: once the durable position reaches it,
     * everything appended before this call is durable.
     */
    public long claimedPosition() {
        Segment segment = current;
        long tail = segment.tail();
        return tail > segment.recordLimit() ? segment.endPosition() : segment.basePosition() + tail;
    }

    @Override
    public void close() {
        allocator.close();
    }
}
