package dev.commitlog.examples;

import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import java.io.IOException;
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
 */
public final class KeyValueStore implements AutoCloseable {
    private final CommitLog log;
    private final Map<String, String> map = new ConcurrentHashMap<>();

    private KeyValueStore(CommitLog log) {
        this.log = log;
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
