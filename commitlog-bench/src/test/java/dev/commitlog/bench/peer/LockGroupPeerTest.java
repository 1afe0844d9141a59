package dev.commitlog.bench.peer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.sut.Appender;
import dev.commitlog.bench.sut.FlushCounters;
import dev.commitlog.bench.sut.SystemUnderTest;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                writers.add(CompletableFuture.runAsync(() -> {
                    try {
                        Appender appender = sut.newAppender(thread);
                        for (int i = 0; i < PER_THREAD; i++) {
                            appender.append(record(thread, i));
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, runnable -> new Thread(runnable).start()));
            }
            CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).join();
            counted = sut.flushCounters();
        }
        int total = THREADS * PER_THREAD;
        assertEquals(total, counted.records(), "every record is counted by exactly one flush");
        assertTrue(counted.flushes() > 0 && counted.flushes() < total,
                "concurrent appends share flushes: " + counted.flushes() + " flushes for " + total + " records");

        ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("lock-group.log")));
        Map<String, Integer> seen = new HashMap<>();
        for (int at = 0; at < total * RECORD; at += RECORD) {
            byte[] chunk = new byte[RECORD];
            file.get(at, chunk);
            seen.merge(new String(chunk, 0, 12), 1, Integer::sum);
        }
        assertEquals(total, seen.size(), "each record once, none lost, none torn");
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < PER_THREAD; i++) {
                assertEquals(1, seen.get(new String(record(t, i), 0, 12)), "record " + t + "/" + i);
            }
        }
    }

    /** A record whose first 12 bytes name its thread and index. */
    private static byte[] record(int thread, int index) {
        byte[] bytes = new byte[RECORD];
        byte[] name = String.format("t%02d-i%06d", thread, index).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        System.arraycopy(name, 0, bytes, 0, name.length);
        return bytes;
    }
}
