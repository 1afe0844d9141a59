package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.codec.TestCodecs;
import dev.commitlog.config.SyncMode;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A closed log that its caller no longer references is garbage, however many threads appended to
 * it and however those threads live on: what the log keeps per appending thread (its frame, its
 * ring of asynchronous completions, about 1.5 MiB) must not keep the log reachable. A node that
 * reopens its log, or a test suite that opens thousands, would otherwise run out of heap on its
 * long-lived threads (a reopen loop on one thread did, at about 2,300 logs in a 6 GiB heap).
 */
class ClosedLogReleaseTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void aClosedLogIsCollectedWhileTheThreadsThatAppendedLiveOn(SyncMode mode) throws Exception {
        ExecutorService pooled = Executors.newSingleThreadExecutor(); // a thread that outlives the log, as a pool's does
        try {
            WeakReference<CommitLog> closed = openUseAndClose(mode, pooled);
            assertCollected(closed, mode + ": the closed log is still reachable from the threads that appended to it");
        } finally {
            pooled.shutdownNow();
        }
    }

    @Test
    void reopeningOnOneThreadKeepsNoEarlierLogAlive() throws Exception {
        ExecutorService pooled = Executors.newSingleThreadExecutor();
        List<WeakReference<CommitLog>> logs = new ArrayList<>();
        try {
            for (int i = 0; i < 40; i++) {
                logs.add(openUseAndClose(SyncMode.values()[i % SyncMode.values().length], pooled));
            }
            for (int i = 0; i < logs.size(); i++) {
                assertCollected(logs.get(i), "log " + i + " of " + logs.size() + " is still reachable after its close");
            }
        } finally {
            pooled.shutdownNow();
        }
    }

    /** Appends plainly, asynchronously and typed, from this thread and from {@code pooled}, then closes. */
    private WeakReference<CommitLog> openUseAndClose(SyncMode mode, ExecutorService pooled) throws Exception {
        CommitLog log = CommitLog.open(TestLogs.config(dir, mode).build(), CommitLogOptions.builder().noJmx().build());
        byte[] record = "a record".getBytes(StandardCharsets.UTF_8);
        log.append(record, 0, record.length);
        log.appendAsync(record, 0, record.length).join();
        log.appendAsync("typed", TestCodecs.BOUNDED_TEXT).join();
        log.append("staged", TestCodecs.UNBOUNDED_TEXT);
        pooled.submit(() -> {
            log.append(record, 0, record.length);
            return log.appendAsync(record, 0, record.length).join();
        }).get();
        log.close();
        return new WeakReference<>(log);
    }

    private static void assertCollected(WeakReference<CommitLog> reference, String message) throws InterruptedException {
        for (int attempt = 0; attempt < 50 && reference.get() != null; attempt++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(reference.get(), message);
    }
}
