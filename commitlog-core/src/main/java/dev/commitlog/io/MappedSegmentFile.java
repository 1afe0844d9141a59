package dev.commitlog.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import net.openhft.chronicle.core.io.IOTools;

/**
 * A segment file mapped whole. A writable file is mapped copy-on-write ({@code MAP_PRIVATE}):
 * appenders' stores land in private pages and never dirty the file's shared pages, so a flush is
 * {@code pwrite} of exactly the new bytes from the mapping followed by {@code fdatasync}
 * ({@link FileChannel#force(boolean) force(false)}).
 *
 * <p>Why not a shared mapping and {@code msync(MS_SYNC)}: measured on this project's machines
 * (ext4 on virtio), a sync after stores through a shared mapping costs about 3x a sync after
 * {@code pwrite} (write-protect, TLB shoot-down and page-fault cycle of mapped dirty pages: about
 * 430 us against 140-170 us), and that cost is paid on every flush. A side benefit: a record that
 * was never flushed never reaches the file, so readers of the file see flushed data only.
 *
 * <p>Flush lanes: concurrent flushes ({@link SegmentFile#flushHeaderAndRange(int, int, int, int)})
 * each use their own lane: a view of the mapping for their positional writes and a file descriptor
 * of their own for {@code fdatasync}. The descriptor matters for correctness, not speed: Linux
 * (4.13+, {@code errseq_t}) reports a writeback error once to every open file description, so a
 * sync on its own descriptor sees any error that could have hit its pages, instead of a concurrent
 * sync on a shared descriptor consuming it and leaving this one to report success (fsyncgate).
 * Lane 0 is the file's own channel; other lanes open theirs at their first flush.
 *
 * <p>Assumptions: each lane is used by one thread at a time; the channels are used by nothing
 * else and are uninterruptible, so no interrupt can close them.
 */
final class MappedSegmentFile implements SegmentFile {
    private final Path path;
    private final MappedByteBuffer buffer;
    /** Open for writable files (flushes go through it); null for read-only ones. */
    private final FileChannel channel;
    /** Per lane: a view of {@link #buffer} for positional writes, and the channel it syncs through. */
    private final ByteBuffer[] laneViews = new ByteBuffer[MAX_FLUSH_LANES];
    private final FileChannel[] laneChannels = new FileChannel[MAX_FLUSH_LANES];
    private volatile boolean closed;

    MappedSegmentFile(Path path, MappedByteBuffer buffer, FileChannel channel) {
        this.path = path;
        this.buffer = buffer;
        this.channel = channel;
        this.laneViews[0] = buffer.duplicate();
        this.laneChannels[0] = channel;
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
        flushHeaderAndRange(0, from, to, 0);
    }

    @Override
    public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
        flushHeaderAndRange(headerLength, from, to, 0);
    }

    @Override
    public void flushHeaderAndRange(int headerLength, int from, int to, int lane) throws IOException {
        checkWritable();
        FileChannel laneChannel = laneChannel(lane);
        ByteBuffer view = laneViews[lane];
        write(view, laneChannel, 0, Math.min(headerLength, from));
        write(view, laneChannel, from, to);
        laneChannel.force(false); // fdatasync: one device flush for header and range
    }

    private FileChannel laneChannel(int lane) throws IOException {
        FileChannel laneChannel = laneChannels[lane]; // IndexOutOfBounds past MAX_FLUSH_LANES: a caller bug
        if (laneChannel == null) {
            laneChannel = FileChannel.open(path, StandardOpenOption.WRITE);
            UninterruptibleChannels.make(laneChannel);
            laneViews[lane] = buffer.duplicate();
            laneChannels[lane] = laneChannel;
        }
        return laneChannel;
    }

    /**
     * pwrite of [from, to) of the mapping to the same offsets of the file, through the lane's
     * view. A full device is reported as {@link NoSpaceLeftException}: this step syncs nothing,
     * so the flush may be retried.
     */
    private void write(ByteBuffer view, FileChannel laneChannel, int from, int to) throws IOException {
        view.limit(to).position(from);
        try {
            while (view.hasRemaining()) {
                laneChannel.write(view, view.position());
            }
        } catch (IOException e) {
            throw NoSpaceLeftException.isNoSpace(e) ? new NoSpaceLeftException(path, e) : e;
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
            for (FileChannel laneChannel : laneChannels) {
                if (laneChannel != null) {
                    try {
                        laneChannel.close();
                    } catch (IOException ignored) {
                        // Every flush that mattered has returned already; nothing is lost by this close.
                    }
                }
            }
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
