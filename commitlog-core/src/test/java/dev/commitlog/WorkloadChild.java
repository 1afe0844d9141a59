package dev.commitlog;

import dev.commitlog.LogTailer;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Child JVM for {@link RuntimeClassPathTest}: everything a node does with the log, in a JVM with
 * no JUnit on any stack (Chronicle probes its POSIX binding only then). In every sync mode, with
 * segments small enough to roll over: appends of each form (bytes, buffer, zero-copy claim,
 * asynchronous, durable), replay as views and as Chronicle {@code Bytes}, {@code readAt}, a tailer,
 * close, and a reopen that recovers and replays. Prints "done N" (N records replayed in all), or
 * "failed: " and the exception.
 */
public final class WorkloadChild {
    private static final int RECORDS = 300;

    private WorkloadChild() {
    }

    public static void main(String[] args) {
        try {
            long replayed = 0;
            for (SyncMode mode : SyncMode.values()) {
                replayed += run(Path.of(args[0]).resolve(mode.name().toLowerCase()), mode);
            }
            System.out.println("done " + replayed);
        } catch (Throwable e) {
            System.out.println("failed: " + e);
            e.printStackTrace(System.out);
        }
    }

    private static long run(Path dir, SyncMode mode) throws Exception {
        CommitLogConfig config = TestLogs.config(dir, mode).segmentSize(TestLogs.SMALL_SEGMENT).build();
        byte[] record = new byte[200];
        long first;
        try (CommitLog log = CommitLog.open(config)) {
            first = log.append(record, 0, record.length);
            AppendClaim claim = new AppendClaim();
            for (int i = 1; i < RECORDS; i++) {
                switch (i % 5) {
                    case 0 -> log.append(record, 0, record.length, Ack.DURABLE);
                    case 1 -> log.append(ByteBuffer.wrap(record));
                    case 2 -> {
                        log.claim(record.length, claim).write(record);
                        claim.commit();
                    }
                    case 3 -> log.appendAsync(record, 0, record.length).get(10, TimeUnit.SECONDS);
                    default -> log.append(record, 0, record.length);
                }
            }
            log.sync();
            AtomicLong count = new AtomicLong();
            log.replay(first, (position, view) -> count.incrementAndGet());
            log.replayBytes(first, (position, bytes) -> count.incrementAndGet());
            expect(2L * RECORDS, count.get(), mode + " replay and replayBytes");
            expect(record.length, log.readAt(first).length, mode + " readAt");
            try (LogTailer tailer = log.tailer(first)) {
                int tailed = 0;
                while (tailed < RECORDS) {
                    tailed += tailer.poll((position, view) -> { }, RECORDS, 1, TimeUnit.SECONDS);
                }
            }
        }
        try (CommitLog reopened = CommitLog.open(config)) {
            AtomicLong count = new AtomicLong();
            reopened.replay(first, (position, view) -> count.incrementAndGet());
            expect(RECORDS, count.get(), mode + " replay after reopen");
            return count.get();
        }
    }

    private static void expect(long expected, long actual, String what) {
        if (expected != actual) {
            throw new AssertionError(what + ": expected " + expected + ", got " + actual);
        }
    }
}
