package dev.commitlog.disk;

import dev.commitlog.io.NoSpaceLeftException;
import dev.commitlog.io.SegmentFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import net.openhft.chronicle.core.io.IOTools;

/**
 * A segment file open for writing: the writer stores frames into memory that is not the file's
 * page cache, and a flush is {@code pwrite} of exactly the new bytes from that memory followed by
 * {@code fdatasync} ({@link FileChannel#force(boolean) force(false)}). Readers map the file
 * read-only and see what the flushes wrote. The memory of a segment created by this log is a
 * buffer from {@link WriterMemory}, reused from segment to segment; that of an existing file
 * opened for writing (recovery's tail, the tools' cut) is a private ({@code MAP_PRIVATE}) mapping
 * of it, which the kernel fills from the file page by page and copies on the first store to each.
 *
 * <p>The write step is a {@link RangeWriter}: {@code pwrite} of exactly those bytes through the
 * page cache, or, for pooled memory when the layer writes directly
 * ({@code commitlog_disk_access_mode: direct}), {@code O_DIRECT} writes of the blocks holding them
 * ({@link DirectFlushBlocks}; a flush carrying the header apart from its range writes those
 * blocks into the page cache instead). The {@code fdatasync} follows either way: a direct write may sit in the
 * device's volatile cache.
 *
 * <p>Why {@code pwrite} rather than a shared mapping and {@code msync(MS_SYNC)}: a sync after
 * stores through a shared mapping also pays the write-protect, TLB shoot-down and page-fault cycle
 * of mapped dirty pages, on every flush (docs/benchmarks.md, "Measurements behind the design", has
 * the figures). A side benefit: a record that was never flushed never reaches the file.
 *
 * <p>Assumptions: one thread flushes at a time; the channel is used by nothing else and is
 * uninterruptible, so no interrupt can close it. Only this file's own descriptor ever syncs it,
 * so a writeback error (reported once per open file description by Linux 4.13+, {@code errseq_t})
 * reaches the flush that could have lost those pages. {@link #close} is called once nothing is
 * written into the memory any more and everything written was flushed (a sealed, flushed segment;
 * a segment prepared but never used; recovery's files): a buffer then goes back to its pool,
 * which zeroes it up to the highest byte this file knows was written; a mapping is unmapped.
 */
final class WritableSegmentFile implements SegmentFile {
    private final Path path;
    private final ByteBuffer memory;
    private final FileChannel channel;
    /** Where the memory goes back on close; null when it is a private mapping of the file, unmapped on close. */
    private final WriterMemory pool;
    /** How a flush's bytes reach the file before its fdatasync. */
    private final RangeWriter writer;
    /** The end of the bytes written into the memory: what was there when opened, and every flushed range. Flusher only. */
    private volatile int writtenTo;
    private volatile boolean closed;

    /** {@code memory} holds the file's bytes; those at and past {@code writtenTo} are zero (pooled memory only). Written through the page cache. */
    WritableSegmentFile(Path path, ByteBuffer memory, int writtenTo, FileChannel channel, WriterMemory pool) {
        this(path, memory, writtenTo, channel, pool, new PageCacheRangeWriter(channel, memory));
    }

    /** As above, written by {@code writer} (which owns any channel of its own). */
    WritableSegmentFile(Path path, ByteBuffer memory, int writtenTo, FileChannel channel, WriterMemory pool, RangeWriter writer) {
        this.path = path;
        this.memory = memory;
        this.writtenTo = writtenTo;
        this.channel = channel;
        this.pool = pool;
        this.writer = writer;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public ByteBuffer buffer() {
        return memory;
    }

    @Override
    public void flush(int from, int to) throws IOException {
        flushHeaderAndRange(0, from, to);
    }

    @Override
    public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
        if (closed) {
            throw new IOException(path + " is closed");
        }
        int stableEnd = DirectFlushBlocks.stableEnd(writtenTo, to);
        writtenTo = Math.max(writtenTo, Math.max(headerLength, to));
        try {
            writer.write(headerLength, from, to, stableEnd);
        } catch (IOException e) {
            // This step syncs nothing, so a flush that found the device full may be retried.
            throw isNoSpace(e) ? new NoSpaceLeftException(path, e) : e;
        }
        channel.force(false); // fdatasync, in both access modes: one device flush for header and range
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                channel.close();
                writer.close();
            } catch (IOException ignored) {
                // Every flush that mattered has returned already; nothing is lost by this close.
            }
            if (pool != null) {
                pool.release(memory, writtenTo);
            } else {
                IOTools.clean(memory);
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
