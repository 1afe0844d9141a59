package dev.commitlog.bench.device;

/**
 * One line of a block device's {@code stat} file ({@code /sys/block/<dev>/stat}, or a partition's
 * {@code /sys/dev/block/<major>:<minor>/stat}): eleven or more whitespace-separated counters, the
 * kernel's Documentation/block/stat.rst. Only the one the benchmarks need is read.
 *
 * <pre>
 * field:  1 read I/Os  2 read merges  3 read sectors  4 read ticks
 *         5 write I/Os 6 write merges 7 write sectors 8 write ticks  9 in flight ...
 * </pre>
 */
public final class BlockDeviceStat {
    /** The kernel counts sectors in 512-byte units whatever the device's own sector size. */
    public static final int SECTOR_BYTES = 512;
    /** 0-based index of "write sectors" (field 7). */
    private static final int WRITE_SECTORS = 6;

    private BlockDeviceStat() {
    }

    /** Bytes written to the device since boot, from the line's write-sectors counter. */
    public static long bytesWritten(String statLine) {
        String[] fields = statLine.trim().split("\\s+");
        if (fields.length <= WRITE_SECTORS) {
            throw new IllegalArgumentException("not a block device stat line (" + fields.length + " fields): " + statLine);
        }
        return Long.parseLong(fields[WRITE_SECTORS]) * SECTOR_BYTES;
    }
}
