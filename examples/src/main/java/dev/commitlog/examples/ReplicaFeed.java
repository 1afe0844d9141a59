package dev.commitlog.examples;

import dev.commitlog.CommitLog;
import dev.commitlog.LogTailer;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A replica fed from a primary's log: a thread tails the log from a position and applies each
 * durable record to its own map, so the replica never sees a write the primary could lose in a
 * crash. A real replica ships the records over the network and remembers {@link #appliedUpTo()} to
 * resume from it.
 *
 * <p>Run it: {@code java -jar examples/target/commitlog-examples.jar replica [DIR]} (see
 * examples/README.md).
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

    /**
     * The example: a {@link KeyValueStore} in {@code DIR} (default: a temporary directory) takes
     * writes while a replica follows its log from the start; the replica ends with the same map.
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        try (ExampleDirectory directory = ExampleDirectory.of(args, "replica")) {
            run(directory.path(), System.out);
        }
    }

    /** The primary's map, the replica's, and how far each got in the log. */
    record Replicated(Map<String, String> primary, Map<String, String> replica, long durablePosition, long appliedUpTo) {
    }

    /** What {@link #main} does, in {@code directory}. */
    static Replicated run(Path directory, PrintStream out) throws IOException, InterruptedException {
        try (KeyValueStore primary = KeyValueStore.open(directory); ReplicaFeed replica = follow(primary.log(), 0)) {
            out.println("primary opened in " + directory + " with " + primary.snapshot().size() + " keys; a replica follows its log from"
                    + " position 0");
            for (int i = 0; i < 300; i++) {
                primary.put("sensor-" + (i % 40), "reading-" + i);
            }
            primary.delete("sensor-0");
            long end = primary.log().durablePosition();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (replica.appliedUpTo() < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the replica applied up to " + replica.appliedUpTo() + " in 10 s, not " + end);
                }
                Thread.sleep(5);
            }
            Replicated result = new Replicated(primary.snapshot(), replica.snapshot(), end, replica.appliedUpTo());
            if (!result.replica().equals(result.primary())) {
                throw new IllegalStateException("the replica holds " + result.replica() + ", the primary " + result.primary());
            }
            out.println("301 durable writes on the primary; the replica applied the log up to position " + result.appliedUpTo()
                    + " and holds the same " + result.replica().size() + " keys (sensor-7 = " + replica.get("sensor-7") + ")");
            return result;
        }
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
