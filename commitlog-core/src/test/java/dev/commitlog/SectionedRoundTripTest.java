package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.SectionedLogs.Sections;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compressed and encrypted logs read back exactly what was appended, at the positions appends
 * returned: by a tailer while appends run, by {@code readAt} and replay before and after a reopen,
 * over many segments (each written as sections, version 3).
 */
class SectionedRoundTripTest {
    private static final int THREADS = 4;
    private static final int PER_THREAD = 250;

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        return SectionedLogs.allSections().flatMap(s -> Stream.of(Arguments.of(s, SyncMode.BATCH), Arguments.of(s, SyncMode.PERIODIC)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void everyReaderReadsWhatWasAppended(Sections sections, SyncMode mode) throws Exception {
        CommitLogConfig config = sections.apply(SectionedLogs.config(dir, mode)).build();
        Map<Long, byte[]> appended = new ConcurrentHashMap<>();
        List<TestLogs.Entry> tailed = new ArrayList<>();
        try (CommitLog log = CommitLog.open(config, sections.options().build()); LogTailer tailer = log.tailer(0)) {
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                Thread writer = new Thread(() -> {
                    Random random = new Random(thread);
                    for (int i = 0; i < PER_THREAD; i++) {
                        byte[] record = SectionedLogs.json(random, thread * PER_THREAD + i, 20 + random.nextInt(400));
                        appended.put(log.append(record, 0, record.length), record);
                    }
                });
                writer.start();
                writers.add(writer);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (tailed.size() < THREADS * PER_THREAD) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the tailer read " + tailed.size() + " records in 60 s, up to position " + tailer.position()
                            + "; durable " + log.durablePosition());
                }
                tailer.poll((position, record) -> tailed.add(new TestLogs.Entry(position, TestLogs.bytes(record))), 1000, 1, TimeUnit.SECONDS);
                if (writers.stream().noneMatch(Thread::isAlive) && tailed.size() < THREADS * PER_THREAD) {
                    log.sync();
                }
            }
            for (Thread writer : writers) {
                writer.join();
            }
            TestLogs.assertReplaysExactly(appended, tailed, "tailer, " + sections);
            log.sync();
            for (Map.Entry<Long, byte[]> e : appended.entrySet()) {
                assertArrayEquals(e.getValue(), log.readAt(e.getKey()), "readAt " + e.getKey());
            }
            TestLogs.assertReplaysExactly(appended, TestLogs.replayAll(log), "replay of the open log, " + sections);
        }
        assertTrue(SectionedLogs.segmentFiles(dir).size() > 3, "the records span several segments");
        SectionedLogs.assertVersions(dir, SegmentDescriptor.FORMAT_VERSION_SECTIONS);
        try (CommitLog log = CommitLog.open(config, sections.options().corruptionListener(TestLogs.NO_DAMAGE).build())) {
            TestLogs.assertReplaysExactly(appended, TestLogs.replayAll(log), "replay after reopen, " + sections);
            for (Map.Entry<Long, byte[]> e : appended.entrySet()) {
                assertArrayEquals(e.getValue(), log.readAt(e.getKey()), "readAt after reopen " + e.getKey());
            }
            List<TestLogs.Entry> again = new ArrayList<>();
            try (LogTailer tailer = log.tailer(0)) {
                while (tailer.poll((position, record) -> again.add(new TestLogs.Entry(position, TestLogs.bytes(record))), 1000) > 0) {
                    // drains what is durable
                }
            }
            TestLogs.assertReplaysExactly(appended, again, "tailer after reopen, " + sections);
            byte[] more = "after reopen".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            long position = log.append(more, 0, more.length);
            log.sync();
            assertArrayEquals(more, log.readAt(position));
            assertEquals(THREADS * PER_THREAD + 1, TestLogs.replayAll(log).size());
        }
    }
}
