package dev.commitlog.raft.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a directory tree holds on disk: the sum of its files' lengths ({@code apparentBytes}), and
 * the blocks the filesystem allocated to them ({@code allocatedBytes}, from {@code du -sk}; -1
 * where {@code du} is not there). The two differ for sparse and preallocated files:
 * {@code RocksDBSegmentLogStorage} maps 1 GiB segment files that hold only what was written, and
 * RocksDB preallocates its WAL; the commit log writes its segments whole. Allocated is what the
 * data costs the disk.
 */
record DiskUsage(long apparentBytes, long allocatedBytes) {
    private static final long DU_TIMEOUT_SECONDS = 60;

    static DiskUsage of(Path dir) throws IOException, InterruptedException {
        return new DiskUsage(apparent(dir), allocated(dir));
    }

    private static long apparent(Path dir) throws IOException {
        long sum = 0;
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.filter(Files::isRegularFile).toList()) {
                sum += Files.size(p);
            }
        }
        return sum;
    }

    /** {@code du -sk}: POSIX, so also on macOS; KiB of allocated blocks. */
    private static long allocated(Path dir) throws InterruptedException {
        Process du;
        try {
            du = new ProcessBuilder("du", "-sk", dir.toString()).redirectErrorStream(true).start();
        } catch (IOException noDu) {
            return -1;
        }
        String out;
        try (InputStream in = du.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            du.destroy();
            return -1;
        }
        if (!du.waitFor(DU_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            du.destroyForcibly();
            return -1;
        }
        if (du.exitValue() != 0) {
            return -1;
        }
        String[] fields = out.trim().split("\\s+", 2);
        try {
            return Long.parseLong(fields[0]) * 1024;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
