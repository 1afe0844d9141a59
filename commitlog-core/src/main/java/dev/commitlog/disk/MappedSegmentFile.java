package dev.commitlog.disk;

import dev.commitlog.io.NoSpaceLeftException;
import dev.commitlog.io.SegmentFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import net.openhft.chronicle.core.io.IOTools;

/**
 * A segment file mapped whole. A writable file is mapped copy-on-write ({@code MAP_PRIVATE}):
 * appenders' stores land in private pages and never dirty the file's shared pages, so a flush is
 * {@code pwrite} of exactly the new bytes from the mapping followed by {@code fdatasync}
 * ({@link FileChannel#force(boolean) force(false)}).
 *
 * <p>Why not a shared mapping and {@code msync(MS_SYNC)}: a sync after stores through a shared
 * mapping also pays the write-protect, TLB shoot-down and page-fault cycle of mapped dirty pages,
 * on every flush (docs/benchmarks.md, "Measurements behind the design", has the figures). A side
 * benefit: a record that was never flushed never reaches the file, so readers of the file see
 * flushed data only.
 *
 * <p>Assumptions: one thread flushes at a time; the channel is used by nothing else and is
 * uninterruptible, so no interrupt can close it. Only this file's own descriptor ever syncs it,
 * so a writeback error (reported once per open file description by Linux 4.13+, {@code errseq_t})
 * reaches the flush that could have lost those pages.
 */
final class MappedSegmentFile implements SegmentFile {
    private final Path path;
    private final MappedByteBuffer buffer;
    /** Open for writable files (flushes go through it); null for read-only ones. */
    private final FileChannel channel;
    /** A view of {@link #buffer} for positional writes (flushes move its position and limit). */
    private final ByteBuffer writeView;
    private volatile boolean closed;

    MappedSegmentFile(Path path, MappedByteBuffer buffer, FileChannel channel) {
        this.path = path;
        this.buffer = buffer;
        this.channel = channel;
        this.writeView = buffer.duplicate();
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public ByteBuffer buffer() {
        return buffer;
    }

    @Override
    public void flush(int from, int to) throws IOException {
        flushHeaderAndRange(0, from, to);
    }

    @Override
    public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
        checkWritable();
        write(0, Math.min(headerLength, from));
        write(from, to);
        channel.force(false); // fdatasync: one device flush for header and range
    }

    /**
     * pwrite of [from, to) of the mapping to the same offsets of the file. A full device is
     * reported as {@link NoSpaceLeftException}: this step syncs nothing, so the flush may be retried.
     */
    private void write(int from, int to) throws IOException {
        ByteBuffer view = writeView;
        view.limit(to).position(from);
        try {
            while (view.hasRemaining()) {
                channel.write(view, view.position());
            }
        } catch (IOException e) {
            throw isNoSpace(e) ? new NoSpaceLeftException(path, e) : e;
        }
    }

    private void checkWritable() throws IOException {
        if (closed) {
            throw new IOException(path + " is closed");
        }
        if (channel == null) {
            throw new IOException(path + " is open read-only");
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            IOTools.clean(buffer);
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // Every flush that mattered has returned already; nothing is lost by this close.
                }
            }
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }

    /**
     * Whether a failed write ran out of space. The JDK reports errno only as
     * {@code strerror}'s text, so the text is what is matched.
     */
    static boolean isNoSpace(IOException e) {
        String message = e.getMessage();
        return message != null && (message.contains("No space left on device") || message.contains("Disk quota exceeded"));
    }
}
