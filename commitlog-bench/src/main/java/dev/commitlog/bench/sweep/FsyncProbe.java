package dev.commitlog.bench.sweep;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;

/**
 * Measures this disk's own flush latency before the cells run: a small write at offset 0 of a
 * preallocated file followed by {@code force(false)} (fdatasync), many times. Its median is the
 * physical limit for one writer that flushes every record: no single-threaded durable mode can
 * beat 1 / median appends per second.
 */
public final class FsyncProbe {
    private static final int WARMUP_ITERATIONS = 20;
    private static final int FILE_BYTES = 4096;

    /** Median and 99th percentile of one write + fdatasync, in microseconds. */
    public record Result(Path directory, String fileStore, int iterations, int writeBytes,
                  double medianUs, double p99Us) {

        public String describe() {
            return String.format(Locale.ROOT,
                    "fdatasync probe: %d x (write %d B at offset 0 + force(false)) in %s (%s): "
                            + "median %.1f us, p99 %.1f us (one serial writer: at most ~%,.0f flushes/s)",
                    iterations, writeBytes, directory, fileStore, medianUs, p99Us, 1e6 / medianUs);
        }
    }

    private FsyncProbe() {
    }

    public static Result run(Path directory, int iterations, int writeBytes) throws IOException {
        Path file = directory.resolve("fsync-probe.dat");
        long[] nanos = new long[iterations];
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            // Preallocate and make the size durable first, so each probe flush carries data only,
            // not a file-size change.
            writeFully(channel, ByteBuffer.allocate(FILE_BYTES));
            channel.force(true);
            ByteBuffer payload = ByteBuffer.allocate(writeBytes);
            for (int i = -WARMUP_ITERATIONS; i < iterations; i++) {
                payload.clear();
                payload.put(0, (byte) i);
                long start = System.nanoTime();
                writeFully(channel, payload);
                channel.force(false);
                long took = System.nanoTime() - start;
                if (i >= 0) {
                    nanos[i] = took;
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
        Arrays.sort(nanos);
        return new Result(directory, Files.getFileStore(directory).type(), iterations, writeBytes,
                percentile(nanos, 50) / 1000.0, percentile(nanos, 99) / 1000.0);
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        long at = 0;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
    }

    /** Nearest-rank percentile of sorted values. */
    private static long percentile(long[] sorted, double percentile) {
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
