package dev.commitlog;

import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.lifecycle.ArchiveListener;
import dev.commitlog.lifecycle.SpaceListener;
import java.time.Duration;
import java.util.Objects;

/**
 * How the embedding node plugs into a log at run time, next to the {@code CommitLogConfig} an
 * operator writes: its listeners, JMX, (for tests) the file layer, and (for ablations) the sync
 * engine's tuning. Immutable; build with
 * {@link #builder()}.
 *
 * <pre>{@code
 * CommitLogOptions options = CommitLogOptions.builder()
 *         .spaceListener(position -> memtables.flushUpTo(position).thenRun(() -> discard(position)))
 *         .archiveListener(segment -> Files.copy(segment.path(), archive.resolve(segment.path().getFileName()), REPLACE_EXISTING))
 *         .build();
 * try (CommitLog log = CommitLog.open(config, options)) { ... }
 * }</pre>
 */
public final class CommitLogOptions {
    private final StorageLayer storage;
    private final CorruptionListener corruptionListener;
    private final SpaceListener spaceListener;
    private final ArchiveListener archiveListener;
    private final Duration archiveRetryDelay;
    private final boolean jmx;
    private final String jmxName;
    private final SyncTuning syncTuning;
    private final KeyProvider keyProvider;

    private CommitLogOptions(Builder builder) {
        this.storage = builder.storage;
        this.corruptionListener = builder.corruptionListener;
        this.spaceListener = builder.spaceListener;
        this.archiveListener = builder.archiveListener;
        this.archiveRetryDelay = builder.archiveRetryDelay;
        this.jmx = builder.jmx;
        this.jmxName = builder.jmxName;
        this.syncTuning = builder.syncTuning;
        this.keyProvider = builder.keyProvider;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** No listeners, JMX under the default name, the production file layer. */
    public static CommitLogOptions defaults() {
        return builder().build();
    }

    public StorageLayer storage() {
        return storage;
    }

    /** Told about damage that the replay policy lets recovery and replay go past; null: logged as a warning. */
    public CorruptionListener corruptionListener() {
        return corruptionListener;
    }

    /** Null when none is registered. */
    public SpaceListener spaceListener() {
        return spaceListener;
    }

    /** Null when segments are not archived. */
    public ArchiveListener archiveListener() {
        return archiveListener;
    }

    public Duration archiveRetryDelay() {
        return archiveRetryDelay;
    }

    public boolean jmx() {
        return jmx;
    }

    /** The MBean's ObjectName, or null for the default ({@code dev.commitlog:type=CommitLog,name="<directory>"}). */
    public String jmxName() {
        return jmxName;
    }

    /** Experimental: the sync engine's mechanisms ({@link SyncTuning#defaults()} unless an ablation sets them). */
    public SyncTuning syncTuning() {
        return syncTuning;
    }

    /**
     * The keys for {@code commitlog_encryption: aes-gcm}; null when none is given. Keys are given in
     * code, never in YAML. Encryption is not written yet: {@code CommitLog.open} refuses a config that
     * enables it, and refuses a key provider given without it.
     */
    public KeyProvider keyProvider() {
        return keyProvider;
    }

    public static final class Builder {
        private StorageLayer storage = new MappedStorageLayer();
        private CorruptionListener corruptionListener;
        private SpaceListener spaceListener;
        private ArchiveListener archiveListener;
        private Duration archiveRetryDelay = Duration.ofSeconds(1);
        private boolean jmx = true;
        private String jmxName;
        private SyncTuning syncTuning = SyncTuning.defaults();
        private KeyProvider keyProvider;

        private Builder() {
        }

        /** The file layer (tests inject faults through it). */
        public Builder storage(StorageLayer storage) {
            this.storage = Objects.requireNonNull(storage, "storage");
            return this;
        }

        public Builder corruptionListener(CorruptionListener listener) {
            this.corruptionListener = Objects.requireNonNull(listener, "corruptionListener");
            return this;
        }

        /** Asked to persist data when segment files reach {@code commitlog_total_space}. */
        public Builder spaceListener(SpaceListener listener) {
            this.spaceListener = Objects.requireNonNull(listener, "spaceListener");
            return this;
        }

        /** Given each complete, durable segment; the file is kept until it returns. */
        public Builder archiveListener(ArchiveListener listener) {
            this.archiveListener = Objects.requireNonNull(listener, "archiveListener");
            return this;
        }

        /** The first wait before a failed archive call is retried (then doubled, up to a minute); default 1 s. */
        public Builder archiveRetryDelay(Duration delay) {
            if (delay.isNegative() || delay.isZero()) {
                throw new IllegalArgumentException("archiveRetryDelay must be positive, got " + delay);
            }
            this.archiveRetryDelay = delay;
            return this;
        }

        /** Registers the MBean under this ObjectName instead of the default (two logs must differ). */
        public Builder jmxName(String objectName) {
            this.jmxName = Objects.requireNonNull(objectName, "objectName");
            this.jmx = true;
            return this;
        }

        /** Registers no MBean. */
        public Builder noJmx() {
            this.jmx = false;
            this.jmxName = null;
            return this;
        }

        /** Experimental, for ablation studies: switches sync mechanisms off (see {@link SyncTuning}). */
        public Builder syncTuning(SyncTuning tuning) {
            this.syncTuning = Objects.requireNonNull(tuning, "tuning");
            return this;
        }

        /** The keys for {@code commitlog_encryption: aes-gcm} (see {@link CommitLogOptions#keyProvider()}). */
        public Builder keyProvider(KeyProvider keys) {
            this.keyProvider = Objects.requireNonNull(keys, "keys");
            return this;
        }

        public CommitLogOptions build() {
            return new CommitLogOptions(this);
        }
    }
}
