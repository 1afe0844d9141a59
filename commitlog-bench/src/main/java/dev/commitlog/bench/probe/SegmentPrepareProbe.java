package dev.commitlog.bench.probe;

import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.segment.Segment;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Locale;

/**
 * The CPU time (user and system, this thread's) that preparing a segment takes: the production
 * file layer's {@code create} and {@link Segment#pretouch}, what the allocator thread does before
 * a segment is handed to appenders. Segment after segment, as a growing log does: each is filled
 * (a store every 8 bytes, as appenders would), flushed whole and closed, as a sealed and flushed
 * segment is, before the next is prepared. Uses only the public API, so a baseline build's core
 * jar put first on the class path is measured the same way.
 *
 * <p>Usage: {@code SegmentPrepareProbe DIR SEGMENTS LABEL} (32 MiB segments; the first 3 are
 * warmup).
 */
public final class SegmentPrepareProbe {
    private static final int SEGMENT_SIZE = 32 << 20;
    private static final int WARMUP = 3;

    private SegmentPrepareProbe() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Files.createTempDirectory(Path.of(args[0]), "segment-prepare-");
        int segments = Integer.parseInt(args[1]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        MappedStorageLayer storage = new MappedStorageLayer();
        long[] prepare = new long[segments - WARMUP];
        long[] fill = new long[segments - WARMUP];
        for (int i = 0; i < segments; i++) {
            Path path = dir.resolve(SegmentDescriptor.fileName(i));
            long start = threads.getCurrentThreadCpuTime();
            SegmentFile file = storage.create(path, SEGMENT_SIZE, ByteBuffer.allocate(SegmentDescriptor.SEGMENT_HEADER_LENGTH),
                    PosixFilePermissions.fromString("rw-r-----"));
            new Segment(i, (long) i * SEGMENT_SIZE, file, SegmentDescriptor.SEGMENT_HEADER_LENGTH).pretouch();
            long prepared = threads.getCurrentThreadCpuTime();
            ByteBuffer memory = file.buffer();
            for (int offset = SegmentDescriptor.SEGMENT_HEADER_LENGTH; offset + Long.BYTES <= SEGMENT_SIZE; offset += Long.BYTES) {
                memory.putLong(offset, offset | 1L);
            }
            long filled = threads.getCurrentThreadCpuTime();
            file.flush(SegmentDescriptor.SEGMENT_HEADER_LENGTH, SEGMENT_SIZE);
            file.close();
            Files.delete(path);
            if (i >= WARMUP) {
                prepare[i - WARMUP] = prepared - start;
                fill[i - WARMUP] = filled - prepared;
            }
        }
        Files.delete(dir);
        System.out.println(String.format(Locale.ROOT, "%s: %d segments of 32 MiB after %d of warmup: prepare (create + pretouch) %s; fill %s",
                args[2], prepare.length, WARMUP, cpu(prepare), cpu(fill)));
    }

    private static String cpu(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "CPU median %.1f ms [min %.1f, max %.1f]",
                sorted[sorted.length / 2] / 1e6, sorted[0] / 1e6, sorted[sorted.length - 1] / 1e6);
    }
}
