package dev.commitlog.bench.probe;

import dev.commitlog.bench.pair.SliceSchedule;
import dev.commitlog.bench.probe.FlushedFile.Way;
import dev.commitlog.bench.stats.PairedRatio;
import dev.commitlog.bench.sweep.FsyncProbe;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One flusher's loop, "write the next range, then {@code fdatasync}", into a 32 MiB zero-filled
 * file (zeros written the same way as the flushes), done two ways ({@link FlushedFile}): buffered {@code pwrite} of the exact range, and
 * {@code O_DIRECT} of the range widened to 4 KiB blocks. Per flush size, the two take turns in
 * slices of the same length, in pairs ordered ABBA BAAB ({@link SliceSchedule}), so the shared
 * disk's drift weighs on both alike; each way has a file of its own.
 *
 * <p>Reported per flush size and way: the median flush (and its write and {@code fdatasync} parts,
 * each a median of its own), p90 and p99, and the thread's CPU time (user and system) per flush,
 * the median over slices; then direct over buffered, paired slice by slice with {@link
 * PairedRatio}'s median and 95% interval, for flushes per second and for CPU per flush. The first
 * flush of each slice is not measured (the way whose turn it is starts cold). At the end each file
 * is read back and compared with the memory it was flushed from. The CPU counted is this thread's
 * only: the page-cache copy of a buffered write and the block I/O it submits are, work the kernel
 * does in its own threads (journal commits, I/O completion) is not.
 *
 * <p>Usage: {@code DirectWriteProbe DIR PAIRS SLICE_MS [FLUSH_BYTES ...]} (default sizes 100, 4096,
 * 65536 and 1048576: a lone writer's record, a few records, a group commit of many writers, a big
 * batch). DIR must be on the disk measured (not a tmpfs).
 */
public final class DirectWriteProbe {
    private static final int FILE_SIZE = 32 << 20;
    private static final int[] DEFAULT_SIZES = {100, 4096, 65536, 1 << 20};
    private static final int WARMUP_PAIRS = 2;
    private static final String USAGE = "usage: DirectWriteProbe DIR PAIRS SLICE_MS [FLUSH_BYTES ...]";

    /** The figures of one way at one flush size. */
    private static final class Measured {
        final LongList flush = new LongList();
        final LongList write = new LongList();
        final LongList force = new LongList();
        final double[] ratePerSecond;
        final double[] cpuNanosPerFlush;

        Measured(int pairs) {
            ratePerSecond = new double[pairs];
            cpuNanosPerFlush = new double[pairs];
        }
    }

    private DirectWriteProbe() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            throw new IllegalArgumentException(USAGE);
        }
        Path parent = Path.of(args[0]);
        int pairs = positive(args[1], "PAIRS", 6, 10_000);
        int sliceMillis = positive(args[2], "SLICE_MS", 1, 60_000);
        int[] sizes = args.length > 3 ? new int[args.length - 3] : DEFAULT_SIZES.clone();
        for (int i = 3; i < args.length; i++) {
            sizes[i - 3] = positive(args[i], "FLUSH_BYTES", 1, FILE_SIZE - FlushedFile.HEADER);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot measure a thread's CPU time");
        }
        Path dir = Files.createTempDirectory(parent, "direct-write-");
        try {
            System.out.println(FsyncProbe.run(dir, 200, 100).describe());
            List<String> rows = new ArrayList<>();
            for (int bytes : sizes) {
                rows.add(measure(dir, bytes, pairs, sliceMillis * 1_000_000L, threads));
            }
            System.out.println(FsyncProbe.run(dir, 200, 100).describe());
            System.out.println();
            System.out.println("| flush | way | flushes | median (write + fdatasync) us | p90 / p99 us | CPU us per flush | direct / buffered: flushes/s | direct / buffered: CPU per flush |");
            System.out.println("|---|---|---:|---|---|---:|---|---|");
            rows.forEach(System.out::println);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Files.delete(file);
                }
            }
            Files.delete(dir);
        }
    }

    private static String measure(Path dir, int bytes, int pairs, long sliceNanos, ThreadMXBean threads) throws IOException {
        Path[] paths = {dir.resolve("buffered-" + bytes), dir.resolve("direct-" + bytes)};
        Measured[] measured = {new Measured(pairs), new Measured(pairs)};
        try (FlushedFile buffered = FlushedFile.create(paths[0], FILE_SIZE, Way.BUFFERED);
             FlushedFile direct = FlushedFile.create(paths[1], FILE_SIZE, Way.DIRECT)) {
            FlushedFile[] files = {buffered, direct};
            for (int slice = 0; slice < 2 * WARMUP_PAIRS; slice++) {
                runSlice(files[slice % 2], bytes, sliceNanos / 2, null, 0, threads);
            }
            for (int slice = 0; slice < 2 * pairs; slice++) {
                int owner = SliceSchedule.owner(slice); // A: buffered, B: direct
                runSlice(files[owner], bytes, sliceNanos, measured[owner], slice / 2, threads);
            }
            for (int way = 0; way < 2; way++) {
                if (!files[way].matchesMemory(paths[way])) {
                    throw new IllegalStateException(paths[way] + ": the file does not hold what was flushed");
                }
            }
        }
        PairedRatio rate = PairedRatio.of(measured[1].ratePerSecond, measured[0].ratePerSecond);
        PairedRatio cpu = PairedRatio.of(measured[1].cpuNanosPerFlush, measured[0].cpuNanosPerFlush);
        String size = bytes % 1024 == 0 ? (bytes >= 1 << 20 ? (bytes >> 20) + " MiB" : (bytes >> 10) + " KiB") : bytes + " B";
        StringBuilder rows = new StringBuilder();
        for (int way = 0; way < 2; way++) {
            Measured m = measured[way];
            long[] flush = m.flush.sorted();
            System.out.println(String.format(Locale.ROOT, "%-8s %-8s %,7d flushes: median %.1f us (write %.1f + fdatasync %.1f), p90 %.1f, p99 %.1f; CPU %.1f us per flush",
                    size, Way.values()[way], flush.length, at(flush, 0.5), at(m.write.sorted(), 0.5), at(m.force.sorted(), 0.5),
                    at(flush, 0.9), at(flush, 0.99), PairedRatio.median(m.cpuNanosPerFlush) / 1e3));
            rows.append(String.format(Locale.ROOT, "| %s | %s | %,d | %.1f (%.1f + %.1f) | %.1f / %.1f | %.1f | %s |%n",
                    size, Way.values()[way].name().toLowerCase(Locale.ROOT), flush.length, at(flush, 0.5), at(m.write.sorted(), 0.5),
                    at(m.force.sorted(), 0.5), at(flush, 0.9), at(flush, 0.99), PairedRatio.median(m.cpuNanosPerFlush) / 1e3,
                    way == 0 ? " | " : PairedRatio.format(rate.median()) + " [" + rate.interval() + "] | "
                            + PairedRatio.format(cpu.median()) + " [" + cpu.interval() + "]"));
        }
        System.out.println(String.format(Locale.ROOT, "%-8s direct / buffered, %d pairs: flushes/s %s [%s], CPU per flush %s [%s]",
                size, pairs, PairedRatio.format(rate.median()), rate.interval(), PairedRatio.format(cpu.median()), cpu.interval()));
        return rows.toString().stripTrailing();
    }

    /**
     * Flushes {@code bytes} at a time for {@code sliceNanos} after one unmeasured flush; records
     * into {@code into} (null: warmup) at {@code pair} the slice's rate and CPU per flush, and
     * every flush's times.
     */
    private static void runSlice(FlushedFile file, int bytes, long sliceNanos, Measured into, int pair, ThreadMXBean threads)
            throws IOException {
        file.flushNext(bytes);
        long cpuStart = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long now = start;
        int flushes = 0;
        while (now - start < sliceNanos) {
            file.flushNext(bytes);
            long done = System.nanoTime();
            if (into != null) {
                into.flush.add(done - now);
                into.write.add(file.lastWriteNanos());
                into.force.add(file.lastForceNanos());
            }
            now = done;
            flushes++;
        }
        long cpu = threads.getCurrentThreadCpuTime() - cpuStart;
        if (into != null) {
            into.ratePerSecond[pair] = flushes * 1e9 / (now - start);
            into.cpuNanosPerFlush[pair] = (double) cpu / flushes;
        }
    }

    /** The value at quantile {@code q} of {@code sorted} nanoseconds, in microseconds. */
    private static double at(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) (sorted.length * q))] / 1e3;
    }

    private static int positive(String value, String name, int min, int max) {
        int parsed;
        try {
            parsed = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " '" + value + "' is not a whole number; " + USAGE, e);
        }
        if (parsed < min || parsed > max) {
            throw new IllegalArgumentException(name + " " + parsed + " is outside " + min + " to " + max + "; " + USAGE);
        }
        return parsed;
    }

    /** A growable list of longs: tens of thousands of flush times without boxing each. */
    private static final class LongList {
        private long[] values = new long[1024];
        private int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        long[] sorted() {
            long[] copy = Arrays.copyOf(values, size);
            Arrays.sort(copy);
            return copy;
        }
    }
}
