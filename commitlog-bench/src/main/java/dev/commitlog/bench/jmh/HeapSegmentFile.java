package dev.commitlog.bench.jmh;

import dev.commitlog.io.SegmentFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A segment "file" that is only a direct buffer: lets the encode benchmark drive the library's
 * real {@code Segment.write}/{@code publish} with no file system underneath. Never flushed.
 */
final class HeapSegmentFile implements SegmentFile {
    private final ByteBuffer buffer;

    HeapSegmentFile(int size) {
        this.buffer = ByteBuffer.allocateDirect(size);
    }

    @Override
    public Path path() {
        return Path.of("in-memory-segment");
    }

    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    @Override
    public void flush(int from, int to) {
        // nothing to make durable: the encode benchmark measures framing only
    }

    @Override
    public void close() {
        // the buffer is freed with the benchmark state
    }
}
