package dev.commitlog.read;

import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A read-only mapping of one segment file with its reference count: one reference for the
 * {@link SegmentMappings} table while the table holds it, one for each user (a read in progress, a
 * tailer on the segment). The file is unmapped when the count drops to zero, and never before.
 */
final class SegmentMapping {
    final SegmentFile file;
    final long segmentId;
    /** The log position of the file's first byte. */
    final long base;
    /** The log position just past the file's last byte: the next segment's base. */
    final long end;
    private final AtomicInteger refs = new AtomicInteger(1);
    /** Told once the file is unmapped. */
    private final Consumer<SegmentMapping> onUnmapped;

    /** A mapping with one reference, its creator's. */
    SegmentMapping(SegmentFile file, long segmentId, long base, Consumer<SegmentMapping> onUnmapped) {
        this.file = file;
        this.onUnmapped = onUnmapped;
        this.segmentId = segmentId;
        this.base = base;
        this.end = base + file.size();
    }

    ByteBuffer buffer() {
        return file.buffer();
    }

    /**
     * Makes the positions below {@code durable} readable in {@link #buffer()}: a sectioned file
     * decodes the sections flushed since it was mapped; a plain one shows them already.
     */
    void readableBelow(long durable) throws IOException {
        long end = Math.min(durable, this.end) - base;
        file.readableTo((int) Math.max(end, SegmentDescriptor.SEGMENT_HEADER_LENGTH));
    }

    Path path() {
        return file.path();
    }

    /** Takes one more reference; false if the count already reached zero (the file is unmapped). */
    boolean acquire() {
        for (int n = refs.get(); n > 0; n = refs.get()) {
            if (refs.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Gives one reference back; the last one unmaps the file. */
    void release() {
        if (refs.decrementAndGet() == 0) {
            file.close();
            onUnmapped.accept(this);
        }
    }
}
