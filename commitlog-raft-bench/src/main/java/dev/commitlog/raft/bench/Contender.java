package dev.commitlog.raft.bench;

import dev.commitlog.config.SyncMode;
import java.util.Arrays;
import java.util.List;

/** A log storage under test. Each JRaft node of a cell uses the same one. */
public enum Contender {
    /** JRaft's default {@code RocksDBLogStorage}: one RocksDB per group on each host. */
    ROCKSDB("rocksdb", null),
    /**
     * JRaft's {@code RocksDBSegmentLogStorage} with the defaults JRaft ships
     * ({@link RocksDbSegmentServiceFactory}): one RocksDB per group on each host for small entries,
     * segment files beside it for large ones.
     */
    ROCKSDB_SEGMENT("rocksdb-segment", null),
    /** {@code CommitLogLogStorage}: all groups of a host on one shared log, adaptive sync. */
    COMMITLOG_ADAPTIVE("commitlog-adaptive", SyncMode.ADAPTIVE),
    /** As {@link #COMMITLOG_ADAPTIVE}, batch sync. */
    COMMITLOG_BATCH("commitlog-batch", SyncMode.BATCH),
    /**
     * No storage: {@link MemoryLogStorage}, JRaft's ceiling at the cell. Not durable and not a
     * contender for the target; measured only when asked for.
     */
    MEMORY("memory", null);

    /** What runs when --contenders is not given: the storages the comparison is about. */
    static final List<Contender> DEFAULTS = List.of(ROCKSDB, ROCKSDB_SEGMENT, COMMITLOG_ADAPTIVE, COMMITLOG_BATCH);

    private final String label;
    private final SyncMode syncMode;

    Contender(String label, SyncMode syncMode) {
        this.label = label;
        this.syncMode = syncMode;
    }

    public String label() {
        return label;
    }

    /** The commit log's sync mode; {@code null} for the RocksDB storages and memory. */
    SyncMode syncMode() {
        return syncMode;
    }

    boolean commitLog() {
        return syncMode != null;
    }

    /** JRaft's RocksDB-backed storages, whose WAL syncs {@link RocksDbWalSyncs} counts. */
    boolean rocksDb() {
        return this == ROCKSDB || this == ROCKSDB_SEGMENT;
    }

    /** Whether the storage keeps its entries across a restart: all but {@link #MEMORY}. */
    boolean durable() {
        return this != MEMORY;
    }

    static List<String> labels() {
        return Arrays.stream(values()).map(Contender::label).toList();
    }

    static Contender of(String label) throws UsageException {
        for (Contender contender : values()) {
            if (contender.label.equals(label)) {
                return contender;
            }
        }
        throw new UsageException("unknown contender '" + label + "' (contenders: " + String.join(", ", labels()) + ")");
    }
}
