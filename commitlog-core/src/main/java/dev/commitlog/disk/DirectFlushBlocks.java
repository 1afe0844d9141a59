package dev.commitlog.disk;

/**
 * Which blocks a flush writes with {@code O_DIRECT} ({@code commitlog_disk_access_mode: direct}),
 * and what each one holds: the arithmetic {@link DirectRangeWriter} writes by, in one place, so
 * that the power-loss tier's simulated disk writes by the same rules.
 *
 * <pre>
 * writer memory  | header | flushed frames | new frames (from..to) | stores in progress ...
 *                0        64            from                   to=stableEnd
 * blocks         [ block 0 ] ... [ first block ....... | last block (a copy)          ]
 * the file gets  the memory's whole blocks, then the last block: the memory below stableEnd, zeros after
 * </pre>
 *
 * <p>{@code O_DIRECT} takes whole {@value #BLOCK}-byte blocks at block offsets from block-aligned
 * memory, so a range is widened to the blocks holding it: its first block again holds bytes an
 * earlier flush wrote, the same bytes, and its last block holds bytes past {@code to}. The block
 * holding the last byte below {@code stableEnd} (the range's end, or past it what earlier flushes
 * wrote) is written from a copy: its bytes below {@code stableEnd}, then zeros. So the device
 * never reads memory that appenders may be storing into while it reads (a device or file system
 * that checksums data in flight would see it change under the checksum), not even the 8 bytes
 * past a salted segment's records that a flush also writes. The next flush writes that block
 * again with what was appended since. The header's block, when a flush carries the durable mark,
 * is written in the same write when the range starts in block 0 or 1; a flush of the header
 * alone writes its block alone; one whose range lies further on writes both through the page
 * cache ({@link #throughPageCache}).
 */
public final class DirectFlushBlocks {
    /** The unit of a direct write: ext4's and XFS's usual block, and the page size. */
    public static final int BLOCK = 4096;

    private DirectFlushBlocks() {
    }

    public static int alignDown(int offset) {
        return offset & -BLOCK;
    }

    public static int alignUp(int offset) {
        return (offset + BLOCK - 1) & -BLOCK;
    }

    /**
     * Whether a flush writes its blocks into the page cache instead: one that carries the header's
     * block and a range apart from it. Two direct writes are two device round trips one after
     * the other, where the {@code fdatasync} of two page-cache writes takes both in one writeback
     * pass; so such a flush (about one per {@code commitlog_durable_mark_interval}) writes the same
     * blocks, whole (no page is read first), through the page cache, and the next direct write
     * drops the cached copy of the block it rewrites.
     */
    public static boolean throughPageCache(int headerLength, int from, int to) {
        return headerLength > 0 && from < to && alignDown(from) > BLOCK;
    }

    /** Whether the header's block is written on its own: a flush of the header alone. */
    public static boolean headerBlockAlone(int headerLength, int from, int to) {
        return headerLength > 0 && from >= to;
    }

    /** Where the write carrying {@code [from, ...)} starts: its first block, or 0 when the header's block rides along. */
    public static int rangeStart(int headerLength, int from) {
        int first = alignDown(from);
        return headerLength > 0 && first <= BLOCK ? 0 : first;
    }

    /** Where the write carrying {@code [..., to)} ends: the end of the block holding its last byte. */
    public static int rangeEnd(int to) {
        return alignUp(to);
    }

    /**
     * The end of the memory's bytes a flush of {@code [..., to)} writes; zeros from there to the end
     * of the block. {@code writtenTo}: the end of what earlier flushes (or the file's opening) wrote.
     */
    public static int stableEnd(int writtenTo, int to) {
        return Math.max(writtenTo, to);
    }

    /** The block written from a copy: the one holding the last byte below {@code stableEnd} (positive). */
    public static int copiedBlock(int stableEnd) {
        return alignDown(stableEnd - 1);
    }
}
