package dev.commitlog.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.sut.Appender;
import dev.commitlog.bench.sut.FlushCounters;
import dev.commitlog.bench.sut.SystemUnderTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lock-group peer writes every record once and counts what its flushes covered, so its
 * column measures a real group commit: concurrent appends share flushes.
 */
class LockGroupPeerTest {
    private static final int THREADS = 4;
    private static final int PER_THREAD = 500;
    private static final int RECORD = 100;

    @Test
    void everyRecordIsWrittenOnceAndConcurrentAppendsShareFlushes(@TempDir Path dir) throws Exception {
        FlushCounters counted;
        try (SystemUnderTest sut = new LockGroupPeer().open(dir, RECORD)) {
            List<CompletableFuture<Void>> writers = new ArrayList<>();
            CountDownLatch start = new CountDownLatch(1); // all writers append at once, so flushes can be shared
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                writers.add(CompletableFuture.runAsync(() -> {
                    try {
                        Appender appender = sut.newAppender(thread);
                        start.await();
                        for (int i = 0; i < PER_THREAD; i++) {
                            appender.append(record(thread, i));
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, runnable -> new Thread(runnable).start()));
            }
            start.countDown();
            CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            counted = sut.flushCounters();
        }
        int total = THREADS * PER_THREAD;
        assertEquals(total, counted.records(), "every record is counted by exactly one flush");
        assertTrue(counted.flushes() < total,
                "concurrent appends share flushes: " + counted.flushes() + " flushes for " + total + " records");

        byte[] file = Files.readAllBytes(dir.resolve("lock-group.log"));
        Map<String, Integer> seen = new HashMap<>();
        for (int at = 0; at < total * RECORD; at += RECORD) {
            seen.merge(new String(file, at, RECORD, StandardCharsets.ISO_8859_1), 1, Integer::sum);
        }
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < PER_THREAD; i++) {
                String whole = new String(record(t, i), StandardCharsets.ISO_8859_1);
                assertEquals(1, seen.getOrDefault(whole, 0), "record " + t + "/" + i + " is in the file once, whole");
            }
        }
        assertEquals(total, seen.size(), "nothing else in the records' space");
    }

    /** A record that names its thread and index, then repeats a pattern of both to its end. */
    private static byte[] record(int thread, int index) {
        byte[] bytes = new byte[RECORD];
        byte[] name = String.format("t%02d-i%06d", thread, index).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(name, 0, bytes, 0, name.length);
        for (int b = name.length; b < RECORD; b++) {
            bytes[b] = (byte) (thread * 31 + index * 7 + b);
        }
        return bytes;
    }
}
