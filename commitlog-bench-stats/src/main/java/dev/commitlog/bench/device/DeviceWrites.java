package dev.commitlog.bench.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Bytes written to the block device that holds a directory, from the device's own counter
 * ({@link BlockDeviceStat}): what reached the device, from every process on the machine, journal
 * and metadata writes included. Not {@code /proc/self/io}'s {@code write_bytes}: that counts page
 * cache folios when they are dirtied, and a folio can be 1 MiB, so a 100-byte write into a file
 * written earlier in 1 MiB chunks counts 1 MiB (docs/benchmarks.md, "Device bytes").
 *
 * <p>A directory on a filesystem with no block device of its own (tmpfs, overlay, btrfs's
 * anonymous device numbers) has no counter: {@link #known()} is false and every reading is
 * {@link #UNKNOWN}.
 */
public final class DeviceWrites {
    /** A reading that was not taken: no device, or its counter could not be read. */
    public static final long UNKNOWN = -1;
    /** The counter of no device, for windows whose device bytes are not measured. */
    public static final DeviceWrites NONE = new DeviceWrites(null, "no device");

    private final Path statFile;   // null when there is no counter
    private final String name;

    private DeviceWrites(Path statFile, String name) {
        this.statFile = statFile;
        this.name = name;
    }

    /** The counter of the device holding {@code directory}, or one that is not {@link #known()} if it has none. */
    public static DeviceWrites of(Path directory) {
        long dev;
        try {
            dev = ((Number) Files.getAttribute(directory, "unix:dev")).longValue();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return new DeviceWrites(null, "no device (" + e.getMessage() + ")");
        }
        String number = major(dev) + ":" + minor(dev);
        Path sysfs = Path.of("/sys/dev/block", number);
        Path stat = sysfs.resolve("stat");
        if (!Files.isReadable(stat)) {
            return new DeviceWrites(null, "no block device (" + number + ")");
        }
        String device;
        try {
            device = sysfs.toRealPath().getFileName() + " (" + number + ")";
        } catch (IOException e) {
            device = number;
        }
        return new DeviceWrites(stat, device);
    }

    /** The major number of a Linux {@code dev_t} as glibc encodes it (12 bits low, 20 high). */
    static long major(long dev) {
        return ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
    }

    /** The minor number of a Linux {@code dev_t} as glibc encodes it (8 bits low, 24 high). */
    static long minor(long dev) {
        return (dev & 0xff) | ((dev >>> 12) & ~0xffL);
    }

    public boolean known() {
        return statFile != null;
    }

    /** The device's name and number, {@code vda (254:0)}, or why there is no counter. */
    public String describe() {
        return name;
    }

    /** Bytes written to the device since boot, or {@link #UNKNOWN}. */
    public long bytesWritten() {
        if (statFile == null) {
            return UNKNOWN;
        }
        try {
            return BlockDeviceStat.bytesWritten(Files.readString(statFile));
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** Bytes written between two readings, or {@link #UNKNOWN} if either was not taken. */
    public static long between(long before, long after) {
        return before == UNKNOWN || after == UNKNOWN ? UNKNOWN : after - before;
    }

    /**
     * Device bytes per byte appended: {@code deviceBytes / appendedBytes}; NaN when the device
     * bytes are {@link #UNKNOWN} or nothing was appended.
     */
    public static double perByte(long deviceBytes, double appendedBytes) {
        return deviceBytes == UNKNOWN || !(appendedBytes > 0) ? Double.NaN : deviceBytes / appendedBytes;
    }

    /**
     * One line saying what else writes to the device: the bytes it took per second while this
     * benchmark appended nothing for {@code millis}, {@code when} (say, "before the cells"): other
     * processes, writeback, the journal.
     */
    public String backgroundLine(String when, long millis) throws InterruptedException {
        long before = bytesWritten();
        Thread.sleep(millis);
        long written = between(before, bytesWritten());
        if (written == UNKNOWN) {
            return "device bytes: not measured (" + name + ")";
        }
        return String.format(Locale.ROOT, "device bytes: from %s's write-sectors counter; %s, with nothing "
                + "appended, the device took %,.0f KiB/s over %d ms", name, when, written / 1024.0 / (millis / 1000.0), millis);
    }
}
