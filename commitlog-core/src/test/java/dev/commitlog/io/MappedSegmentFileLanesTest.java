package dev.commitlog.io;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipelined flushes on the production file: flushes of disjoint ranges on different lanes, run at
 * once, each put exactly their bytes in the file (the mapping is copy-on-write, so nothing else
 * reaches it); each lane past 0 syncs through a file descriptor of its own, opened at its first
 * flush and closed with the file.
 */
class MappedSegmentFileLanesTest {
    private static final int SIZE = 64 * 1024;
    private static final int LANES = 4;
    private static final int RANGE = 4096;

    @TempDir
    Path dir;

    @Test
    void concurrentLanesWriteTheirOwnRangesThroughTheirOwnDescriptors() throws Exception {
        Path fds = Path.of("/proc/self/fd");
        assumeTrue(Files.isDirectory(fds), "needs /proc/self/fd");
        MappedStorageLayer storage = new MappedStorageLayer();
        Path path = dir.resolve("segment");
        SegmentFile file = storage.create(path, SIZE, ByteBuffer.allocate(64), PosixFilePermissions.fromString("rw-------"));
        long before = openDescriptorsOn(fds, path);
        assertEquals(1, before, "a writable file keeps one descriptor until a second lane flushes");

        ByteBuffer mapping = file.buffer();
        for (int i = RANGE; i < RANGE * (LANES + 2); i++) {
            mapping.put(i, (byte) (i / RANGE)); // ranges 1..LANES are flushed; range LANES+1 never is
        }
        CyclicBarrier start = new CyclicBarrier(LANES);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> problems = new ArrayList<>();
        for (int lane = 0; lane < LANES; lane++) {
            int from = RANGE * (lane + 1);
            int l = lane;
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    file.flushHeaderAndRange(0, from, from + RANGE, l);
                } catch (Throwable t) {
                    synchronized (problems) {
                        problems.add(t);
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), problems);
        assertEquals(LANES, openDescriptorsOn(fds, path), "one descriptor per lane");

        byte[] onDisk = Files.readAllBytes(path);
        for (int i = RANGE; i < RANGE * (LANES + 1); i++) {
            assertEquals((byte) (i / RANGE), onDisk[i], "byte " + i + " of a flushed lane");
        }
        for (int i = RANGE * (LANES + 1); i < RANGE * (LANES + 2); i++) {
            assertEquals(0, onDisk[i], "byte " + i + " was never flushed, yet reached the file");
        }
        file.close();
        assertEquals(0, openDescriptorsOn(fds, path), "closing the file closes every lane's descriptor");
    }

    private static long openDescriptorsOn(Path fds, Path file) throws Exception {
        Path real = file.toRealPath();
        try (Stream<Path> links = Files.list(fds)) {
            return links.filter(link -> {
                try {
                    return Files.readSymbolicLink(link).equals(real);
                } catch (Exception e) {
                    return false; // closed meanwhile, or not a link
                }
            }).count();
        }
    }
}
