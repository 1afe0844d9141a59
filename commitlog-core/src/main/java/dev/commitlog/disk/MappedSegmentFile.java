package dev.commitlog.disk;

import dev.commitlog.io.SegmentFile;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import net.openhft.chronicle.core.io.IOTools;

/**
 * A segment file mapped whole, read-only (shared): how replay, tailers and {@code readAt} read
 * segments. The mapping shows what the writer's flushes wrote ({@link WritableSegmentFile}), since
 * both go through the page cache.
 */
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
    public MappedByteBuffer buffer() {
        return buffer;
    }

    @Override
    public void flush(int from, int to) throws IOException {
        throw new IOException(path + " is open read-only");
    }

    @Override
    public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
        throw new IOException(path + " is open read-only");
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
