package dev.commitlog.bench.probe;

import dev.commitlog.disk.SegmentFileSpace;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One writer's {@code pwrite} + {@code fdatasync} latency into a new 32 MiB file whose space was
 * made each way a {@link SegmentFileSpace} makes it: zeros written, only the length set (sparse),
 * or the {@code fallocate} command (mode 0: unwritten extents). Writes go at advancing, 8-byte
 * aligned offsets, as a segment's frames do. Rounds take the three in rotating order, each on a
 * fresh file, so drift weighs on all alike.
 *
 * <p>Usage: {@code FileSpaceProbe DIR RECORD_BYTES ROUNDS WRITES_PER_ROUND}.
 */
public final class FileSpaceProbe {
    private static final int FILE_SIZE = 32 << 20;

    private FileSpaceProbe() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        int recordBytes = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        int perRound = Integer.parseInt(args[3]);
        Map<SegmentFileSpace, List<Long>> nanos = new EnumMap<>(SegmentFileSpace.class);
        for (SegmentFileSpace space : SegmentFileSpace.values()) {
            nanos.put(space, new ArrayList<>());
        }
        ByteBuffer record = ByteBuffer.allocateDirect(recordBytes);
        for (int i = 0; i < recordBytes; i++) {
            record.put(i, (byte) (i | 1));
        }
        for (int round = 0; round < rounds; round++) {
            List<SegmentFileSpace> order = new ArrayList<>(List.of(SegmentFileSpace.values()));
            Collections.rotate(order, round);
            for (SegmentFileSpace space : order) {
                Path file = dir.resolve("file-space-probe-" + space);
                Files.deleteIfExists(file);
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    space.prepare(channel, file, FILE_SIZE);
                    channel.force(true);
                    long offset = 64;
                    for (int i = 0; i < perRound; i++) {
                        record.clear();
                        long start = System.nanoTime();
                        while (record.hasRemaining()) {
                            channel.write(record, offset + record.position());
                        }
                        channel.force(false);
                        nanos.get(space).add(System.nanoTime() - start);
                        offset += (recordBytes + 8 + 7) & ~7;
                    }
                } finally {
                    Files.deleteIfExists(file);
                }
            }
        }
        for (Map.Entry<SegmentFileSpace, List<Long>> entry : nanos.entrySet()) {
            List<Long> sorted = new ArrayList<>(entry.getValue());
            Collections.sort(sorted);
            System.out.println(String.format(Locale.ROOT, "%-17s %5d B: %d writes, median %.1f us, p90 %.1f us, p99 %.1f us",
                    entry.getKey(), recordBytes, sorted.size(), percentile(sorted, 0.5), percentile(sorted, 0.9), percentile(sorted, 0.99)));
        }
    }

    private static double percentile(List<Long> sorted, double q) {
        return sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * q))) / 1e3;
    }
}
