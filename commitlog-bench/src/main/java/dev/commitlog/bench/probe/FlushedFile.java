package dev.commitlog.bench.probe;

import dev.commitlog.disk.DirectOpenOption;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * A segment-sized file, zero-filled and synced as the engine makes a new segment, flushed range
 * after range from writer memory of its own, as {@code disk/WritableSegmentFile} flushes: write the
 * range just past the last one, then {@code fdatasync} ({@link FileChannel#force(boolean)
 * force(false)}). Two ways to write the range:
 * <ul>
 *   <li>{@link Way#BUFFERED}: {@code pwrite} of exactly the range, through the page cache;</li>
 *   <li>{@link Way#DIRECT}: {@code O_DIRECT} ({@code com.sun.nio.file.O_DIRECT}), the range
 *       widened to whole {@link #BLOCK}s, from memory aligned to one. The block the last flush
 *       ended in is written again by the next flush, with what was appended since.</li>
 * </ul>
 * Both keep the {@code fdatasync}: an {@code O_DIRECT} write returns once the device has the data,
 * which may still be in its volatile cache (this VM's disk reports "write back"), and any
 * metadata the write changed is not committed (CASSANDRA-20692: Cassandra 5.0's direct commit log
 * at first never forced).
 *
 * <p>When a range would pass the file's end, flushes start again after the header, over blocks
 * written before: as in a segment that was zero-filled, no flush changes the file's size or
 * allocates a block. The memory holds a fixed non-zero pattern; what is written does not matter to
 * the device, only where and how much. One thread at a time.
 */
final class FlushedFile implements Closeable {
    private static final OpenOption O_DIRECT = DirectOpenOption.direct();

    /** The unit {@code O_DIRECT} offsets, lengths and buffer addresses are aligned to (ext4's block). */
    static final int BLOCK = 4096;
    /** Flushes start past a segment header's length, as a segment's first flush does. */
    static final int HEADER = 64;

    /** How a flush writes its range. */
    enum Way {
        BUFFERED, DIRECT
    }

    private final Way way;
    private final int size;
    private final FileChannel channel;
    /** The writer memory: {@link #size} bytes, aligned to {@link #BLOCK}. */
    private final ByteBuffer memory;
    /** A view of {@link #memory} whose position and limit each write moves. */
    private final ByteBuffer writeView;
    /** The end of the last flushed range. */
    private int end = HEADER;
    /** The end of the highest range ever flushed: the file matches the memory up to here. */
    private int highest = HEADER;
    private long lastWriteNanos;
    private long lastForceNanos;

    private FlushedFile(Way way, int size, FileChannel channel, ByteBuffer memory) {
        this.way = way;
        this.size = size;
        this.channel = channel;
        this.memory = memory;
        this.writeView = memory.duplicate();
    }

    /**
     * Creates {@code file} (which must not exist) of {@code size} bytes, a multiple of
     * {@link #BLOCK}: zeros written the way it will be flushed (so a direct file has no page-cache
     * copy for its flushes to drop) and the file synced, as the engine makes a new segment; then
     * opens it for flushing {@code way}.
     */
    static FlushedFile create(Path file, int size, Way way) throws IOException {
        if (size <= HEADER || size % BLOCK != 0) {
            throw new IllegalArgumentException("file size " + size + " must be a multiple of " + BLOCK + " above " + HEADER);
        }
        OpenOption[] create = way == Way.DIRECT
                ? new OpenOption[] {StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, O_DIRECT}
                : new OpenOption[] {StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE};
        try (FileChannel zeros = FileChannel.open(file, create)) {
            ByteBuffer block = ByteBuffer.allocateDirect((1 << 20) + BLOCK).alignedSlice(BLOCK).limit(1 << 20).slice();
            for (long at = 0; at < size; ) {
                block.clear().limit((int) Math.min(block.capacity(), size - at));
                at += zeros.write(block, at);
            }
            zeros.force(true);
        }
        ByteBuffer memory = ByteBuffer.allocateDirect(size + BLOCK).alignedSlice(BLOCK);
        memory.limit(size);
        for (int i = 0; i < size; i++) {
            memory.put(i, (byte) (i * 31 + 7 | 1));
        }
        OpenOption[] options = way == Way.DIRECT
                ? new OpenOption[] {StandardOpenOption.WRITE, O_DIRECT}
                : new OpenOption[] {StandardOpenOption.WRITE};
        return new FlushedFile(way, size, FileChannel.open(file, options), memory.slice());
    }

    Way way() {
        return way;
    }

    /**
     * Writes the next {@code bytes} of the memory to the file and syncs it; the range starts where
     * the last one ended, or after the header when it would pass the file's end.
     */
    void flushNext(int bytes) throws IOException {
        if (bytes <= 0 || bytes > size - HEADER) {
            throw new IllegalArgumentException("a flush of " + bytes + " bytes: from 1 to " + (size - HEADER) + " fit the file");
        }
        int from = end;
        int to = from + bytes;
        if (to > size) {
            from = HEADER;
            to = HEADER + bytes;
        }
        long start = System.nanoTime();
        if (way == Way.DIRECT) {
            write(alignDown(from), Math.min(size, alignUp(to)));
        } else {
            write(from, to);
        }
        long written = System.nanoTime();
        channel.force(false); // fdatasync, in both ways
        lastForceNanos = System.nanoTime() - written;
        lastWriteNanos = written - start;
        end = to;
        highest = Math.max(highest, to);
    }

    /** How long the last flush's write took. */
    long lastWriteNanos() {
        return lastWriteNanos;
    }

    /** How long the last flush's {@code fdatasync} took. */
    long lastForceNanos() {
        return lastForceNanos;
    }

    /** Whether the file, read back through the page cache, holds the memory's bytes wherever flushes wrote. */
    boolean matchesMemory(Path file) throws IOException {
        ByteBuffer read = ByteBuffer.allocate(highest - HEADER);
        try (FileChannel reader = FileChannel.open(file, StandardOpenOption.READ)) {
            while (read.hasRemaining()) {
                if (reader.read(read, HEADER + read.position()) < 0) {
                    return false;
                }
            }
        }
        byte[] expected = new byte[highest - HEADER];
        memory.get(HEADER, expected);
        return Arrays.equals(read.array(), expected);
    }

    private void write(int from, int to) throws IOException {
        ByteBuffer view = writeView;
        view.limit(to).position(from);
        while (view.hasRemaining()) {
            channel.write(view, view.position());
        }
    }

    static int alignDown(int offset) {
        return offset & -BLOCK;
    }

    static int alignUp(int offset) {
        return (offset + BLOCK - 1) & -BLOCK;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
