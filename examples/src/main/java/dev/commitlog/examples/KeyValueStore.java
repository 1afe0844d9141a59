package dev.commitlog.examples;

import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A key-value store whose only durable state is the commit log: {@link #put} and {@link #delete}
 * append a record and return once it is durable (the default sync mode, adaptive), then change the
 * map; {@link #open} replays the log to rebuild the map. What a real node adds: snapshots of the
 * map, then {@code log.discardUpTo(snapshotPosition)} so that replay starts from the snapshot.
 *
 * <p>One writer thread at a time (puts are applied in log order only because they are serialised
 * here); any number of readers.
 *
 * <p>Run it: {@code java -jar examples/target/commitlog-examples.jar key-value [DIR]} (see
 * examples/README.md).
 */
public final class KeyValueStore implements AutoCloseable {
    private final CommitLog log;
    private final Map<String, String> map = new ConcurrentHashMap<>();

    private KeyValueStore(CommitLog log) {
        this.log = log;
    }

    /**
     * The example: writes to a store in {@code DIR} (default: a temporary directory), closes it,
     * opens it again and shows that replay rebuilt the map.
     */
    public static void main(String[] args) throws IOException {
        try (ExampleDirectory directory = ExampleDirectory.of(args, "key-value")) {
            run(directory.path(), System.out);
        }
    }

    /** The map when the store closed, and the map replay rebuilt when it opened again. */
    record Reopened(Map<String, String> written, Map<String, String> replayed) {
    }

    /** What {@link #main} does, in {@code directory}. */
    static Reopened run(Path directory, PrintStream out) throws IOException {
        Map<String, String> written;
        try (KeyValueStore store = open(directory)) {
            out.println("opened " + directory + ": replay found " + store.snapshot().size() + " keys");
            for (int i = 0; i < 200; i++) {
                store.put("user-" + (i % 50), "visits=" + i);
            }
            for (int i = 0; i < 10; i++) {
                store.delete("user-" + i);
            }
            written = store.snapshot();
            out.println("put 200 values under 50 keys and deleted 10 keys, each durable before it returned: " + written.size()
                    + " keys; the log is durable up to position " + store.log().durablePosition());
        }
        try (KeyValueStore reopened = open(directory)) {
            Map<String, String> replayed = reopened.snapshot();
            if (!replayed.equals(written)) {
                throw new IllegalStateException("replay rebuilt " + replayed + ", not " + written);
            }
            out.println("closed and opened again: replay rebuilt the same " + replayed.size() + " keys (user-42 = "
                    + reopened.get("user-42") + ")");
            return new Reopened(written, replayed);
        }
    }

    /** Opens (or creates) the store in {@code directory}, replaying every record into the map. */
    public static KeyValueStore open(Path directory) throws IOException {
        CommitLog log = CommitLog.open(CommitLogConfig.builder(directory).build());
        KeyValueStore store = new KeyValueStore(log);
        log.replay(0, (position, record) -> KeyValueRecord.applyTo(store.map, record));
        return store;
    }

    /** Stores {@code value} under {@code key} durably; returns the record's log position. */
    public synchronized long put(String key, String value) {
        long position = append(KeyValueRecord.put(key, value));
        map.put(key, value);
        return position;
    }

    /** Removes {@code key} durably; returns the record's log position. */
    public synchronized long delete(String key) {
        long position = append(KeyValueRecord.delete(key));
        map.remove(key);
        return position;
    }

    private long append(ByteBuffer record) {
        return log.append(record);
    }

    public String get(String key) {
        return map.get(key);
    }

    public Map<String, String> snapshot() {
        return Map.copyOf(map);
    }

    /** The log, for followers ({@link ReplicaFeed}) and metrics. */
    public CommitLog log() {
        return log;
    }

    @Override
    public void close() {
        log.close();
    }
}
