package dev.commitlog.raft.bench;

import dev.commitlog.config.SyncMode;
import java.util.Arrays;
import java.util.List;

/** A log storage under test. Each JRaft node of a cell uses the same one. */
public enum Contender {
    /** JRaft's default {@code RocksDBLogStorage}: one RocksDB per group on each host. */
    ROCKSDB("rocksdb", null),
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
    static final List<Contender> DEFAULTS = List.of(ROCKSDB, COMMITLOG_ADAPTIVE, COMMITLOG_BATCH);

    private final String label;
    private final SyncMode syncMode;

    Contender(String label, SyncMode syncMode) {
        this.label = label;
        this.syncMode = syncMode;
    }

    public String label() {
        return label;
    }

    /** The commit log's sync mode; {@code null} for RocksDB and memory. */
    SyncMode syncMode() {
        return syncMode;
    }

    boolean commitLog() {
        return syncMode != null;
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
