package dev.commitlog.config;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The commit log's settings: immutable, valid by construction, each named after its YAML key.
 *
 * <p>Made by {@link #load(Path)} or {@link #parse(String)} from YAML, or by {@link #builder(Path)}
 * in code. Both go through {@link Builder#build()}, so they accept and reject exactly the same
 * settings with the same messages. {@code conf/commitlog.yaml} documents every key.
 */
public final class CommitLogConfig {
    /** Bytes of each segment taken by its header and end marker; a record must fit in the rest. */
    public static final int SEGMENT_OVERHEAD_BYTES = 128;

    /** The settings as given, unresolved, so {@link #toBuilder()} can tell explicit from default. */
    private final Builder given;

    private final Path directory;
    private final SyncMode syncMode;
    private final Duration syncPeriod;
    private final Duration groupWindow;
    private final Duration periodicLagBlock;
    private final Duration durableMarkInterval;
    private final int segmentSize;
    private final int maxRecordSize;
    private final long totalSpace;
    private final int recycleSegments;
    private final DiskAccessMode diskAccessMode;
    private final CommitFailurePolicy commitFailurePolicy;
    private final ReplayPolicy replayPolicy;
    private final Set<PosixFilePermission> filePermissions;
    private final Compression compression;
    private final int compressionLevel;
    private final Encryption encryption;

    /** Resolves defaults and checks every rule, in dependency order (mode, then what depends on it). */
    private CommitLogConfig(Builder given) {
        this.given = given;
        this.directory = ConfigRules.directory(given);
        this.syncMode = given.syncMode != null ? given.syncMode : SyncMode.ADAPTIVE;
        this.syncPeriod = ConfigRules.syncPeriod(given, syncMode);
        this.groupWindow = ConfigRules.groupWindow(given, syncMode);
        this.periodicLagBlock = ConfigRules.periodicLagBlock(given, syncMode, syncPeriod);
        this.durableMarkInterval = ConfigRules.durableMarkInterval(given);
        this.segmentSize = ConfigRules.segmentSize(given);
        this.maxRecordSize = ConfigRules.maxRecordSize(given, segmentSize);
        this.totalSpace = ConfigRules.totalSpace(given, segmentSize);
        this.recycleSegments = ConfigRules.recycleSegments(given);
        this.diskAccessMode = ConfigRules.diskAccessMode(given);
        this.commitFailurePolicy = given.commitFailurePolicy != null ? given.commitFailurePolicy : CommitFailurePolicy.STOP;
        this.replayPolicy = given.replayPolicy != null ? given.replayPolicy : ReplayPolicy.TOLERATE_TAIL;
        this.filePermissions = ConfigRules.filePermissions(given);
        this.compression = given.compression != null ? given.compression : Compression.NONE;
        this.compressionLevel = ConfigRules.compressionLevel(given, compression);
        this.encryption = given.encryption != null ? given.encryption : Encryption.NONE;
    }

    /**
     * Reads a YAML file such as {@code conf/commitlog.yaml}.
     *
     * @param yamlFile the file, UTF-8
     * @return the configuration
     * @throws ConfigException if the content is not a valid configuration; the message starts with
     *                         the file name and line
     * @throws IOException     if the file cannot be read (e.g. {@link java.nio.file.NoSuchFileException})
     */
    public static CommitLogConfig load(Path yamlFile) throws IOException {
        return YamlConfigLoader.load(yamlFile);
    }

    /**
     * Reads YAML text with the same rules as {@link #load(Path)}.
     *
     * @param yamlText the document, e.g. the content of {@code conf/commitlog.yaml}
     * @return the configuration
     * @throws ConfigException if it is not a valid configuration; the message starts with the line
     */
    public static CommitLogConfig parse(String yamlText) {
        return YamlConfigLoader.parse(yamlText);
    }

    /**
     * A builder with every other setting at its default.
     *
     * @param directory {@code commitlog_directory}; required, so {@code null} makes {@link Builder#build()} fail
     * @return a new builder
     */
    public static Builder builder(Path directory) {
        return new Builder().directory(directory);
    }

    /**
     * A builder holding the settings this config was built from. Settings that were left to their
     * defaults stay unset, so derived defaults (the lag block, max record size) follow changes.
     */
    public Builder toBuilder() {
        return given.copy();
    }

    /** {@code commitlog_directory}: where segments live; absolute (a relative one resolved against the working directory). */
    public Path directory() {
        return directory;
    }

    /** {@code commitlog_sync}, default {@link SyncMode#ADAPTIVE}: an append returns once it is durable. */
    public SyncMode syncMode() {
        return syncMode;
    }

    /** {@code commitlog_sync_period}, default 10000ms; used only in periodic mode. */
    public Duration syncPeriod() {
        return syncPeriod;
    }

    /** {@code commitlog_sync_group_window}, default 10ms; used only in group mode. */
    public Duration groupWindow() {
        return groupWindow;
    }

    /** {@code periodic_commitlog_sync_lag_block}, default 1.5 x the sync period; used only in periodic mode. */
    public Duration periodicLagBlock() {
        return periodicLagBlock;
    }

    /**
     * {@code commitlog_durable_mark_interval}, default 10ms: how often, at most, a flush past a
     * segment's first 4 KiB also rewrites the header's durable mark; zero rewrites it with every
     * flush. Every mode uses it.
     */
    public Duration durableMarkInterval() {
        return durableMarkInterval;
    }

    /** {@code commitlog_segment_size} in bytes, default 32MiB. */
    public int segmentSize() {
        return segmentSize;
    }

    /** {@code max_record_size} in bytes, default half the segment size. */
    public int maxRecordSize() {
        return maxRecordSize;
    }

    /** {@code commitlog_total_space} in bytes, default 8GiB. */
    public long totalSpace() {
        return totalSpace;
    }

    /**
     * {@code commitlog_recycle_segments}, default {@value ConfigRules#DEFAULT_RECYCLE_SEGMENTS}: how
     * many discarded segment files are kept to become new segments (0 deletes them), so that a log
     * that discards as it appends writes each byte once instead of creating and zero-filling files.
     */
    public int recycleSegments() {
        return recycleSegments;
    }

    /**
     * {@code commitlog_disk_access_mode}, default {@link DiskAccessMode#STANDARD}: whether flushes
     * write through the page cache or with {@code O_DIRECT}; both end with {@code fdatasync}.
     */
    public DiskAccessMode diskAccessMode() {
        return diskAccessMode;
    }

    /** {@code commit_failure_policy}, default {@link CommitFailurePolicy#STOP}. */
    public CommitFailurePolicy commitFailurePolicy() {
        return commitFailurePolicy;
    }

    /** {@code commitlog_replay_policy}, default {@link ReplayPolicy#TOLERATE_TAIL}. */
    public ReplayPolicy replayPolicy() {
        return replayPolicy;
    }

    /** {@code commitlog_file_mode} as permissions, default {@code 0600}; unmodifiable. */
    public Set<PosixFilePermission> filePermissions() {
        return filePermissions;
    }

    /**
     * {@code commitlog_compression}, default {@link Compression#NONE}: how flushed sections are
     * compressed. Not yet acted on: {@code CommitLog.open} refuses any other value.
     */
    public Compression compression() {
        return compression;
    }

    /**
     * {@code commitlog_compression_level}: zstd's level, 1 to 22, default 3; 0 for the codecs that
     * take none. Not yet acted on.
     */
    public int compressionLevel() {
        return compressionLevel;
    }

    /**
     * {@code commitlog_encryption}, default {@link Encryption#NONE}: how flushed sections are
     * encrypted, with the keys of {@code CommitLogOptions.keyProvider()}. Not yet acted on:
     * {@code CommitLog.open} refuses any other value.
     */
    public Encryption encryption() {
        return encryption;
    }

    /** The value of one setting as YAML would write it, in units. */
    String setting(ConfigKey key) {
        return switch (key) {
            case COMMITLOG_DIRECTORY -> directory.toString();
            case COMMITLOG_SYNC -> YamlNames.of(syncMode);
            case COMMITLOG_SYNC_PERIOD -> Units.formatDuration(syncPeriod);
            case COMMITLOG_SYNC_GROUP_WINDOW -> Units.formatDuration(groupWindow);
            case PERIODIC_COMMITLOG_SYNC_LAG_BLOCK -> Units.formatDuration(periodicLagBlock);
            case COMMITLOG_DURABLE_MARK_INTERVAL -> Units.formatDuration(durableMarkInterval);
            case COMMITLOG_SEGMENT_SIZE -> Units.formatSize(segmentSize);
            case MAX_RECORD_SIZE -> Units.formatSize(maxRecordSize);
            case COMMITLOG_TOTAL_SPACE -> Units.formatSize(totalSpace);
            case COMMITLOG_RECYCLE_SEGMENTS -> Integer.toString(recycleSegments);
            case COMMITLOG_DISK_ACCESS_MODE -> YamlNames.of(diskAccessMode);
            case COMMIT_FAILURE_POLICY -> YamlNames.of(commitFailurePolicy);
            case COMMITLOG_REPLAY_POLICY -> YamlNames.of(replayPolicy);
            case COMMITLOG_FILE_MODE -> FileMode.format(filePermissions);
            case COMMITLOG_COMPRESSION -> YamlNames.of(compression);
            case COMMITLOG_COMPRESSION_LEVEL -> Integer.toString(compressionLevel);
            case COMMITLOG_ENCRYPTION -> YamlNames.of(encryption);
        };
    }

    /** Every setting, including those the sync mode does not use, as {@code key: value} in units. */
    @Override
    public String toString() {
        StringJoiner joiner = new StringJoiner(", ", "CommitLogConfig{", "}");
        for (ConfigKey key : ConfigKey.values()) {
            joiner.add(key + ": " + setting(key));
        }
        return joiner.toString();
    }

    /** Equal when every resolved setting is equal, however it was given. */
    @Override
    public boolean equals(Object other) {
        if (!(other instanceof CommitLogConfig)) {
            return false;
        }
        CommitLogConfig that = (CommitLogConfig) other;
        return directory.equals(that.directory) && syncMode == that.syncMode
                && syncPeriod.equals(that.syncPeriod) && groupWindow.equals(that.groupWindow)
                && periodicLagBlock.equals(that.periodicLagBlock) && durableMarkInterval.equals(that.durableMarkInterval)
                && segmentSize == that.segmentSize
                && maxRecordSize == that.maxRecordSize && totalSpace == that.totalSpace && recycleSegments == that.recycleSegments
                && diskAccessMode == that.diskAccessMode && commitFailurePolicy == that.commitFailurePolicy && replayPolicy == that.replayPolicy
                && filePermissions.equals(that.filePermissions) && compression == that.compression
                && compressionLevel == that.compressionLevel && encryption == that.encryption;
    }

    @Override
    public int hashCode() {
        return Objects.hash(directory, syncMode, syncPeriod, groupWindow, periodicLagBlock, durableMarkInterval, segmentSize,
                maxRecordSize, totalSpace, recycleSegments, diskAccessMode, commitFailurePolicy, replayPolicy, filePermissions, compression,
                compressionLevel, encryption);
    }

    /**
     * Collects settings; {@link #build()} resolves defaults and checks every rule. Passing
     * {@code null} to a setter unsets it, back to its default. A setting given explicitly is checked
     * even where a default would be ignored: a sync period with batch mode is an error, not a no-op.
     * Not thread-safe.
     */
    public static final class Builder {
        // null = not given. Package-private for ConfigRules; sizes are long so YAML values too large
        // for an int still reach the range check.
        Path directory;
        SyncMode syncMode;
        Duration syncPeriod;
        Duration groupWindow;
        Duration periodicLagBlock;
        Duration durableMarkInterval;
        Long segmentSize;
        Long maxRecordSize;
        Long totalSpace;
        Integer recycleSegments;
        DiskAccessMode diskAccessMode;
        CommitFailurePolicy commitFailurePolicy;
        ReplayPolicy replayPolicy;
        Set<PosixFilePermission> filePermissions;
        Compression compression;
        Integer compressionLevel;
        Encryption encryption;
        /** Values as spelled in YAML, so messages quote what the user wrote, not a reformatting. */
        final Map<ConfigKey, String> spelling = new HashMap<>();

        private Builder() {
        }

        /** {@code commitlog_directory}: required; a relative path resolves against the working directory. */
        public Builder directory(Path directory) {
            this.directory = directory;
            return unspelled(ConfigKey.COMMITLOG_DIRECTORY);
        }

        /** {@code commitlog_sync}. */
        public Builder syncMode(SyncMode syncMode) {
            this.syncMode = syncMode;
            return unspelled(ConfigKey.COMMITLOG_SYNC);
        }

        /** {@code commitlog_sync_period}: periodic mode only; positive. */
        public Builder syncPeriod(Duration syncPeriod) {
            this.syncPeriod = syncPeriod;
            return unspelled(ConfigKey.COMMITLOG_SYNC_PERIOD);
        }

        /** {@code commitlog_sync_group_window}: group mode only; positive. */
        public Builder groupWindow(Duration groupWindow) {
            this.groupWindow = groupWindow;
            return unspelled(ConfigKey.COMMITLOG_SYNC_GROUP_WINDOW);
        }

        /** {@code periodic_commitlog_sync_lag_block}: periodic mode only; at least the sync period. */
        public Builder periodicLagBlock(Duration periodicLagBlock) {
            this.periodicLagBlock = periodicLagBlock;
            return unspelled(ConfigKey.PERIODIC_COMMITLOG_SYNC_LAG_BLOCK);
        }

        /** {@code commitlog_durable_mark_interval}: any mode; zero (every flush) or more. */
        public Builder durableMarkInterval(Duration durableMarkInterval) {
            this.durableMarkInterval = durableMarkInterval;
            return unspelled(ConfigKey.COMMITLOG_DURABLE_MARK_INTERVAL);
        }

        /** {@code commitlog_segment_size} in bytes: a multiple of 4096 from 64KiB to 1GiB. */
        public Builder segmentSize(int segmentSize) {
            return segmentSizeBytes(segmentSize);
        }

        /** {@code max_record_size} in bytes: 1 to segment size minus {@link #SEGMENT_OVERHEAD_BYTES}. */
        public Builder maxRecordSize(int maxRecordSize) {
            return maxRecordSizeBytes(maxRecordSize);
        }

        /** {@code commitlog_total_space} in bytes: at least twice the segment size. */
        public Builder totalSpace(long totalSpace) {
            this.totalSpace = totalSpace;
            return unspelled(ConfigKey.COMMITLOG_TOTAL_SPACE);
        }

        /** {@code commitlog_recycle_segments}: 0 (delete discarded segments) or more. */
        public Builder recycleSegments(int recycleSegments) {
            this.recycleSegments = recycleSegments;
            return unspelled(ConfigKey.COMMITLOG_RECYCLE_SEGMENTS);
        }

        /** {@code commitlog_disk_access_mode}: {@code standard} (the page cache) or {@code direct} ({@code O_DIRECT}). */
        public Builder diskAccessMode(DiskAccessMode diskAccessMode) {
            this.diskAccessMode = diskAccessMode;
            return unspelled(ConfigKey.COMMITLOG_DISK_ACCESS_MODE);
        }

        /** {@code commit_failure_policy}. */
        public Builder commitFailurePolicy(CommitFailurePolicy commitFailurePolicy) {
            this.commitFailurePolicy = commitFailurePolicy;
            return unspelled(ConfigKey.COMMIT_FAILURE_POLICY);
        }

        /** {@code commitlog_replay_policy}. */
        public Builder replayPolicy(ReplayPolicy replayPolicy) {
            this.replayPolicy = replayPolicy;
            return unspelled(ConfigKey.COMMITLOG_REPLAY_POLICY);
        }

        /** {@code commitlog_file_mode}: owner read and write required, no execute bits. Copied. */
        public Builder filePermissions(Set<PosixFilePermission> filePermissions) {
            this.filePermissions = filePermissions == null ? null : copyOf(filePermissions);
            return unspelled(ConfigKey.COMMITLOG_FILE_MODE);
        }

        /** {@code commitlog_compression}: {@code none}, {@code lz4} or {@code zstd}. Not yet acted on. */
        public Builder compression(Compression compression) {
            this.compression = compression;
            return unspelled(ConfigKey.COMMITLOG_COMPRESSION);
        }

        /** {@code commitlog_compression_level}: zstd only, 1 to 22. Not yet acted on. */
        public Builder compressionLevel(int compressionLevel) {
            this.compressionLevel = compressionLevel;
            return unspelled(ConfigKey.COMMITLOG_COMPRESSION_LEVEL);
        }

        /** {@code commitlog_encryption}: {@code none} or {@code aes-gcm}. Not yet acted on. */
        public Builder encryption(Encryption encryption) {
            this.encryption = encryption;
            return unspelled(ConfigKey.COMMITLOG_ENCRYPTION);
        }

        /**
         * @throws ConfigException naming the YAML key, the value and what is allowed, if a value is
         *                         out of range, contradicts another or the directory is missing
         */
        public CommitLogConfig build() {
            return new CommitLogConfig(copy());
        }

        Builder segmentSizeBytes(long segmentSize) {
            this.segmentSize = segmentSize;
            return unspelled(ConfigKey.COMMITLOG_SEGMENT_SIZE);
        }

        Builder maxRecordSizeBytes(long maxRecordSize) {
            this.maxRecordSize = maxRecordSize;
            return unspelled(ConfigKey.MAX_RECORD_SIZE);
        }

        /** Records how YAML spelled the value just set; call after the setter. */
        Builder spelled(ConfigKey key, String text) {
            spelling.put(key, text);
            return this;
        }

        private Builder unspelled(ConfigKey key) {
            spelling.remove(key);
            return this;
        }

        Builder copy() {
            Builder copy = new Builder();
            copy.directory = directory;
            copy.syncMode = syncMode;
            copy.syncPeriod = syncPeriod;
            copy.groupWindow = groupWindow;
            copy.periodicLagBlock = periodicLagBlock;
            copy.durableMarkInterval = durableMarkInterval;
            copy.segmentSize = segmentSize;
            copy.maxRecordSize = maxRecordSize;
            copy.totalSpace = totalSpace;
            copy.recycleSegments = recycleSegments;
            copy.diskAccessMode = diskAccessMode;
            copy.commitFailurePolicy = commitFailurePolicy;
            copy.replayPolicy = replayPolicy;
            copy.filePermissions = filePermissions == null ? null : copyOf(filePermissions);
            copy.compression = compression;
            copy.compressionLevel = compressionLevel;
            copy.encryption = encryption;
            copy.spelling.putAll(spelling);
            return copy;
        }

        private static Set<PosixFilePermission> copyOf(Set<PosixFilePermission> permissions) {
            Set<PosixFilePermission> copy = EnumSet.noneOf(PosixFilePermission.class);
            copy.addAll(permissions); // not EnumSet.copyOf, which rejects an empty plain Set
            return copy;
        }
    }
}
