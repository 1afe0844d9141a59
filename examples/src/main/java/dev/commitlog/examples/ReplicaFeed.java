package dev.commitlog.examples;

import dev.commitlog.CommitLog;
import dev.commitlog.LogTailer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A replica fed from a primary's log: a thread tails the log from a position and applies each
 * durable record to its own map, so the replica never sees a write the primary could lose in a
 * crash. A real replica ships the records over the network and remembers {@link #appliedUpTo()} to
 * resume from it.
 */
public final class ReplicaFeed implements AutoCloseable {
    private final Map<String, String> map = new ConcurrentHashMap<>();
    private final LogTailer tailer;
    private final Thread thread;
    private volatile boolean stopped;
    private volatile long appliedUpTo;
    private volatile Throwable failure;

    private ReplicaFeed(LogTailer tailer, String name) {
        this.tailer = tailer;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
    }

    /** Starts following {@code primary} from log position {@code from} (0: from the beginning). */
    public static ReplicaFeed follow(CommitLog primary, long from) throws IOException {
        ReplicaFeed feed = new ReplicaFeed(primary.tailer(from), "replica-feed");
        feed.thread.start();
        return feed;
    }

    private void run() {
        try {
            while (!stopped) {
                int polled = tailer.poll((position, record) -> KeyValueRecord.applyTo(map, record), 1_000, 50, TimeUnit.MILLISECONDS);
                appliedUpTo = tailer.position();
                if (polled < 0) {
                    return; // the primary closed and everything durable was applied
                }
            }
        } catch (IOException e) {
            failure = new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            failure = e;
        }
    }

    public String get(String key) {
        rethrow();
        return map.get(key);
    }

    public Map<String, String> snapshot() {
        rethrow();
        return Map.copyOf(map);
    }

    /** The log position just past the last record applied: where a restarted replica resumes. */
    public long appliedUpTo() {
        return appliedUpTo;
    }

    private void rethrow() {
        Throwable failed = failure;
        if (failed != null) {
            throw new IllegalStateException("the replica feed stopped: " + failed, failed);
        }
    }

    /** Stops the feed thread (within one poll's wait) and closes the tailer. */
    @Override
    public void close() {
        stopped = true;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        tailer.close();
    }
}
