package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.commitlog.config.DiskAccessMode;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A log opened with {@code commitlog_disk_access_mode: direct} on the real file system: the
 * segment files it writes are open with {@code O_DIRECT} (the kernel's own record,
 * {@code /proc/self/fdinfo}), concurrent writers' records replay byte for byte across many
 * segments, a tailer reads them as they become durable, and a reopened log replays them all again.
 * The same run with {@code standard} must find no segment open with {@code O_DIRECT}.
 */
class DirectAccessModeLogTest {
    /** {@code O_DIRECT} in the octal flags {@code /proc/<pid>/fdinfo} shows (x86-64 and arm64 differ: asm-generic's value). */
    private static final int O_DIRECT = "aarch64".equals(System.getProperty("os.arch")) ? 0200000 : 040000;
    private static final int THREADS = 4;
    private static final int PER_THREAD = 600;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(DiskAccessMode.class)
    void recordsWrittenInEitherModeReplayAndOnlyDirectModeOpensSegmentsWithODirect(DiskAccessMode access) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fdinfo")), "needs Linux's /proc");
        Path logDir = dir.resolve("log");
        ConcurrentMap<Long, byte[]> appended = new ConcurrentHashMap<>();
        List<TestLogs.Entry> tailed = new ArrayList<>();
        int directSegments;
        try (CommitLog log = CommitLog.open(config(logDir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT)
                .diskAccessMode(access).build(), CommitLogOptions.builder().noJmx().build());
             LogTailer tailer = log.tailer(0)) {
            CountDownLatch started = new CountDownLatch(THREADS);
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                writers.add(new Thread(() -> {
                    started.countDown();
                    for (int i = 0; i < PER_THREAD; i++) {
                        byte[] record = payload(thread * PER_THREAD + i, 40 + (thread * 131 + i * 17) % 900);
                        appended.put(log.append(record, 0, record.length), record);
                    }
                }));
            }
            writers.forEach(Thread::start);
            started.await();
            directSegments = segmentsOpenWithODirect(logDir);
            while (writers.stream().anyMatch(Thread::isAlive) || tailed.size() < THREADS * PER_THREAD) {
                tailer.poll((position, record) -> tailed.add(new TestLogs.Entry(position, TestLogs.bytes(record))), 500, 20,
                        TimeUnit.MILLISECONDS);
                directSegments = Math.max(directSegments, segmentsOpenWithODirect(logDir));
            }
            for (Thread writer : writers) {
                writer.join();
            }
            TestLogs.assertReplaysExactly(appended, tailed, "tailed while written (" + access + ")");
            TestLogs.assertReplaysExactly(appended, TestLogs.replayAll(log), "replayed (" + access + ")");
        }
        if (access == DiskAccessMode.DIRECT) {
            assertTrue(directSegments > 0, "a segment file is open with O_DIRECT while the log writes");
        } else {
            assertEquals(0, directSegments, "no segment file is open with O_DIRECT");
        }
        try (CommitLog log = CommitLog.open(config(logDir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT)
                .diskAccessMode(access).build(), CommitLogOptions.builder().noJmx().build())) {
            TestLogs.assertReplaysExactly(appended, TestLogs.replayAll(log), "replayed after a reopen (" + access + ")");
        }
    }

    /** The segment files under {@code logDir} this process has open with {@code O_DIRECT}. */
    private static int segmentsOpenWithODirect(Path logDir) throws IOException {
        int direct = 0;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                Path target;
                String info;
                try {
                    target = Files.readSymbolicLink(fd);
                    info = Files.readString(Path.of("/proc/self/fdinfo", fd.getFileName().toString()));
                } catch (IOException closedMeanwhile) {
                    continue;
                }
                if (!target.startsWith(logDir) || !target.getFileName().toString().endsWith(".log")) {
                    continue;
                }
                for (String line : info.split("\n")) {
                    if (line.startsWith("flags:") && (Integer.parseInt(line.substring(6).trim(), 8) & O_DIRECT) != 0) {
                        direct++;
                    }
                }
            }
        }
        return direct;
    }
}
