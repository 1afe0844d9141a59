package dev.commitlog.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pretouch leaves every page of a segment file opened for writing (recovery's tail, whose memory
 * is a private mapping of the file) copied, so that no appender takes a copy-on-write fault, also
 * once the JIT has compiled it: segments are created, reopened for writing and pretouched, round after round (C2 compiles pretouch within the first 40), and after each pretouch
 * the kernel's own account of the mapping ({@code /proc/self/smaps}, {@code Anonymous:}, the copied
 * pages of a private file mapping) must cover the whole file. A pretouch that only reads fails at
 * the first round; one whose store C2 removes fails once it is compiled.
 */
class PretouchTest {
    private static final int SIZE = 8 * 1024 * 1024;
    /** 2,048 pages a round: C2 compiles pretouch within the first 40 rounds. */
    private static final int ROUNDS = 80;
    private static final Set<PosixFilePermission> PERMISSIONS = PosixFilePermissions.fromString("rw-r-----");

    @TempDir
    Path dir;

    @Test
    void everyPageIsCopiedBeforeAnyAppendEvenWhenCompiled() throws IOException {
        MappedStorageLayer storage = new MappedStorageLayer();
        for (int round = 1; round <= ROUNDS; round++) {
            Path path = dir.resolve(SegmentDescriptor.fileName(round));
            storage.create(path, SIZE, SegmentHeader.encode(round, 0, SIZE), PERMISSIONS).close();
            try (SegmentFile file = storage.open(path, true)) {
                new Segment(round, 0, file, SegmentDescriptor.SEGMENT_HEADER_LENGTH).pretouch();
                assertEquals(SIZE / 1024, copiedKiB(path), "KiB of the mapping copied by pretouch, round " + round);
            }
            Files.delete(path);
        }
    }

    /** The {@code Anonymous:} kB of the mappings of {@code file} in this process. */
    private static long copiedKiB(Path file) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        String name = file.toRealPath().toString();
        long kib = 0;
        boolean inFile = false;
        for (String line : lines) {
            if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                inFile = line.endsWith(" " + name);
            } else if (inFile && line.startsWith("Anonymous:")) {
                kib += Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return kib;
    }
}
