package dev.commitlog.disk;

import static dev.commitlog.disk.DirectFlushBlocks.BLOCK;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Writes a flush's blocks with {@code O_DIRECT} ({@code commitlog_disk_access_mode: direct}): from
 * the writer's memory straight to the device, no page-cache copy, with one gathering write per
 * contiguous run of blocks ({@code writev} at the run's offset). {@link DirectFlushBlocks} says
 * which blocks and what they hold: whole blocks of the memory, then the block holding the last
 * stable byte through a copy of its own, zeros past the stable end; and which flushes write those
 * same blocks into the page cache instead (through a second descriptor of the file: the flush's
 * {@code fdatasync} writes back and syncs the file's dirty pages whichever descriptor made them).
 *
 * <p>Assumptions: the channel was opened with {@code O_DIRECT}, on a file system whose block size
 * divides {@value DirectFlushBlocks#BLOCK}; the memory starts on a block boundary and the file's
 * length is a multiple of a block; only the flusher uses the channel (the run's offset is the
 * channel's position).
 */
final class DirectRangeWriter implements RangeWriter {
    private static final byte[] ZEROS = new byte[BLOCK];

    private final FileChannel channel;
    /** For the flushes {@link DirectFlushBlocks#throughPageCache} sends there: a second, buffered descriptor of the file. */
    private final FileChannel pageCache;
    private final ByteBuffer memory;
    /** The block holding the last stable byte, copied out of the memory and zeroed past the stable end. Block-aligned. */
    private final ByteBuffer lastBlock;
    /** The memory's whole blocks of a run, then {@link #lastBlock} (or nothing); reused so that a flush allocates nothing. */
    private final ByteBuffer[] run = new ByteBuffer[2];
    private final ByteBuffer noBytes;
    private final ByteBuffer blocks;

    /** {@code channel}: the file opened with {@code O_DIRECT}; {@code pageCacheChannel}: the same file without, closed with this writer. */
    DirectRangeWriter(FileChannel channel, FileChannel pageCache, ByteBuffer memory) {
        if (memory.alignmentOffset(0, BLOCK) != 0 || memory.capacity() % BLOCK != 0) {
            throw new IllegalArgumentException("direct writes need block-aligned memory of whole blocks; got "
                    + memory.capacity() + " bytes at offset " + memory.alignmentOffset(0, BLOCK) + " from a block boundary");
        }
        this.channel = channel;
        this.pageCache = pageCache;
        this.memory = memory;
        this.blocks = memory.duplicate();
        this.lastBlock = ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).limit(BLOCK).slice();
        this.noBytes = lastBlock.duplicate().limit(0);
    }

    @Override
    public void write(int headerLength, int from, int to, int stableEnd) throws IOException {
        if (DirectFlushBlocks.headerBlockAlone(headerLength, from, to)) {
            writeRun(channel, 0, BLOCK, stableEnd);
        } else if (DirectFlushBlocks.throughPageCache(headerLength, from, to)) {
            writeRun(pageCache, 0, BLOCK, stableEnd);
            writeRun(pageCache, DirectFlushBlocks.rangeStart(headerLength, from), DirectFlushBlocks.rangeEnd(to), stableEnd);
        } else if (from < to) {
            writeRun(channel, DirectFlushBlocks.rangeStart(headerLength, from), DirectFlushBlocks.rangeEnd(to), stableEnd);
        }
    }

    @Override
    public void close() throws IOException {
        pageCache.close();
    }

    /** Writes blocks {@code [start, end)}: the memory's blocks before the copied one, then its copy if the run holds it. */
    private void writeRun(FileChannel channel, int start, int end, int stableEnd) throws IOException {
        int copied = DirectFlushBlocks.copiedBlock(stableEnd);
        int fromMemory = Math.min(end, copied);
        blocks.limit(fromMemory).position(start);
        run[0] = blocks;
        run[1] = noBytes;
        if (end > copied) { // the run ends with the copied block: end == copied + BLOCK
            int stable = stableEnd - copied;
            lastBlock.clear();
            lastBlock.put(0, memory, copied, stable);
            lastBlock.put(stable, ZEROS, 0, BLOCK - stable);
            run[1] = lastBlock;
        }
        channel.position(start);
        while (run[0].hasRemaining() || run[1].hasRemaining()) {
            channel.write(run);
        }
    }
}
