package dev.commitlog.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

import net.openhft.chronicle.core.io.IOTools;

/** A segment file mapped whole; flushes are {@code msync(MS_SYNC)} on the page range. */
final class MappedSegmentFile implements SegmentFile {
    private final Path path;
    private final MappedByteBuffer buffer;
    private volatile boolean closed;

    MappedSegmentFile(Path path, MappedByteBuffer buffer) {
        this.path = path;
        this.buffer = buffer;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public int size() {
        return buffer.capacity();
    }

    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    @Override
    public void flush(int from, int to) throws IOException {
        if (closed) {
            throw new IOException(path + " is closed");
        }
        try {
            // MappedByteBuffer.force(index, length) page-aligns the range and calls msync(MS_SYNC).
            buffer.force(from, to - from);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            IOTools.clean(buffer);
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
