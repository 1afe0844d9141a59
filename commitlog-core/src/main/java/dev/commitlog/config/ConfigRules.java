package dev.commitlog.config;

import dev.commitlog.config.CommitLogConfig.Builder;
import dev.commitlog.format.SegmentDescriptor;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Each setting's default and rules, one method per key: the single validation that both the YAML
 * loader and the builder go through. A method receives the settings it depends on already resolved.
 * Messages name the YAML key, the value (as the YAML spelled it, when it came from YAML) and what
 * is allowed.
 */
final class ConfigRules {
    static final Duration DEFAULT_SYNC_PERIOD = Duration.ofMillis(10_000);
    static final Duration DEFAULT_GROUP_WINDOW = Duration.ofMillis(10);
    /**
     * Rewriting the durable mark puts the header's block into a flush's fdatasync (docs/benchmarks.md,
     * "Measurements behind the design", has its cost). The mark is a
     * lower bound, so skipping rewrites is crash-safe; what widens is the tail window in which media
     * damage is read as a torn tail (docs/format.md).
     */
    static final Duration DEFAULT_DURABLE_MARK_INTERVAL = Duration.ofMillis(10);
    static final long DEFAULT_SEGMENT_SIZE = 32L << 20;
    static final long DEFAULT_TOTAL_SPACE = 8L << 30;
    /**
     * Discarded segment files kept for reuse; each costs commitlog_segment_size of disk (counted in
     * the total space). Four keep a log that discards as fast as it appends from creating files at
     * 64-256 writers (docs/benchmarks.md, recycling's device bytes).
     */
    static final int DEFAULT_RECYCLE_SEGMENTS = 4;
    static final int MAX_RECYCLE_SEGMENTS = 1024;
    static final Set<PosixFilePermission> DEFAULT_FILE_PERMISSIONS = Collections.unmodifiableSet(
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));

    /** zstd's own default level, and its range (its negative "fast" levels are left out). */
    static final int DEFAULT_ZSTD_LEVEL = 3;
    static final int MIN_ZSTD_LEVEL = 1;
    static final int MAX_ZSTD_LEVEL = 22;

    /** Segments are written in whole pages; 4KiB is the page and block size we align to. */
    static final long SEGMENT_ALIGNMENT = 4096;
    static final long MIN_SEGMENT_SIZE = SegmentDescriptor.MIN_SEGMENT_SIZE; // shorter files are damage to replay
    static final long MAX_SEGMENT_SIZE = 1L << 30;
    /** Durations are used as nanosecond counts (System.nanoTime arithmetic), so must fit a long. */
    static final Duration MAX_DURATION = Duration.ofNanos(Long.MAX_VALUE);

    private ConfigRules() {
    }

    static Path directory(Builder given) {
        ConfigKey key = ConfigKey.COMMITLOG_DIRECTORY;
        if (given.directory == null) {
            throw new ConfigException(key.toString(), null,
                    key + ": is required but missing; expected the directory for segment files (e.g. " + key.example + ")");
        }
        String shown = shown(given, key, given.directory.toString());
        if (given.directory.toString().isEmpty()) {
            throw ConfigException.invalid(key, shown, "is empty; expected a directory (e.g. " + key.example + ")");
        }
        try {
            // As Cassandra does: a relative directory is relative to the JVM's working directory,
            // not to the YAML file. Resolved once here so logs and toString show the real place.
            return given.directory.toAbsolutePath().normalize();
        } catch (java.io.IOError | SecurityException | InvalidPathException e) {
            throw new ConfigException(key.toString(), shown,
                    key + ": " + ConfigException.quoted(shown) + " cannot be made absolute (" + e.getMessage() + ")", e);
        }
    }

    static Duration syncPeriod(Builder given, SyncMode mode) {
        ConfigKey key = ConfigKey.COMMITLOG_SYNC_PERIOD;
        if (given.syncPeriod == null) {
            return DEFAULT_SYNC_PERIOD;
        }
        String shown = shown(given, key, Units.formatDuration(given.syncPeriod));
        requireMode(key, shown, mode);
        return positive(key, shown, given.syncPeriod);
    }

    static Duration groupWindow(Builder given, SyncMode mode) {
        ConfigKey key = ConfigKey.COMMITLOG_SYNC_GROUP_WINDOW;
        if (given.groupWindow == null) {
            return DEFAULT_GROUP_WINDOW;
        }
        String shown = shown(given, key, Units.formatDuration(given.groupWindow));
        requireMode(key, shown, mode);
        return positive(key, shown, given.groupWindow);
    }

    static Duration periodicLagBlock(Builder given, SyncMode mode, Duration syncPeriod) {
        ConfigKey key = ConfigKey.PERIODIC_COMMITLOG_SYNC_LAG_BLOCK;
        Duration byDefault = syncPeriod.plus(syncPeriod.dividedBy(2));
        if (byDefault.compareTo(MAX_DURATION) > 0) {
            byDefault = MAX_DURATION; // a period near the maximum: the lag block can be no longer
        }
        if (given.periodicLagBlock == null) {
            return byDefault;
        }
        String shown = shown(given, key, Units.formatDuration(given.periodicLagBlock));
        requireMode(key, shown, mode);
        Duration lagBlock = positive(key, shown, given.periodicLagBlock);
        // Writers block when the last sync is older than this; shorter than the period, they would
        // block on every period even when the sync thread keeps up.
        if (lagBlock.compareTo(syncPeriod) < 0) {
            throw ConfigException.invalid(key, shown, "is shorter than " + ConfigKey.COMMITLOG_SYNC_PERIOD + " ("
                    + Units.formatDuration(syncPeriod) + "); expected at least the period (by default it is 1.5 x the period, "
                    + Units.formatDuration(byDefault) + ")");
        }
        return lagBlock;
    }

    static Duration durableMarkInterval(Builder given) {
        ConfigKey key = ConfigKey.COMMITLOG_DURABLE_MARK_INTERVAL;
        if (given.durableMarkInterval == null) {
            return DEFAULT_DURABLE_MARK_INTERVAL;
        }
        String shown = shown(given, key, Units.formatDuration(given.durableMarkInterval));
        if (given.durableMarkInterval.isNegative()) {
            throw ConfigException.invalid(key, shown, "is negative; expected zero (rewrite the mark with every flush) or a "
                    + "longer duration (e.g. " + key.example + ")");
        }
        return atMostMax(key, shown, given.durableMarkInterval);
    }

    static int segmentSize(Builder given) {
        ConfigKey key = ConfigKey.COMMITLOG_SEGMENT_SIZE;
        if (given.segmentSize == null) {
            return (int) DEFAULT_SEGMENT_SIZE;
        }
        long size = given.segmentSize;
        String shown = shown(given, key, Units.formatSize(size));
        String allowed = "expected a multiple of 4096 bytes (4KiB) from 64KiB to 1GiB (e.g. " + key.example + ")";
        if (size < MIN_SEGMENT_SIZE || size > MAX_SEGMENT_SIZE) {
            throw ConfigException.invalid(key, shown, "is out of range; " + allowed);
        }
        if (size % SEGMENT_ALIGNMENT != 0) {
            throw ConfigException.invalid(key, shown, "is not a multiple of 4096 bytes; " + allowed);
        }
        return (int) size;
    }

    static int maxRecordSize(Builder given, int segmentSize) {
        ConfigKey key = ConfigKey.MAX_RECORD_SIZE;
        if (given.maxRecordSize == null) {
            return segmentSize / 2;
        }
        long size = given.maxRecordSize;
        String shown = shown(given, key, Units.formatSize(size));
        // A record never spans segments, so it must fit in what a segment leaves after its overhead.
        long limit = (long) segmentSize - CommitLogConfig.SEGMENT_OVERHEAD_BYTES;
        String allowed = "expected 1B to " + ConfigKey.COMMITLOG_SEGMENT_SIZE + " (" + Units.formatSize(segmentSize)
                + ") minus " + CommitLogConfig.SEGMENT_OVERHEAD_BYTES + "B of segment overhead, i.e. at most "
                + Units.formatSize(limit) + " (by default half the segment size)";
        if (size < 1) {
            throw ConfigException.invalid(key, shown, "is too small; " + allowed);
        }
        if (size > limit) {
            throw ConfigException.invalid(key, shown, "does not fit in a segment; " + allowed);
        }
        return (int) size;
    }

    static long totalSpace(Builder given, int segmentSize) {
        ConfigKey key = ConfigKey.COMMITLOG_TOTAL_SPACE;
        if (given.totalSpace == null) {
            return DEFAULT_TOTAL_SPACE;
        }
        long space = given.totalSpace;
        // One segment being written and one being recycled or replayed is the least that works.
        long least = 2L * segmentSize;
        if (space < least) {
            throw ConfigException.invalid(key, shown(given, key, Units.formatSize(space)), "is too small; expected at least 2 x "
                    + ConfigKey.COMMITLOG_SEGMENT_SIZE + " (" + Units.formatSize(segmentSize) + "), i.e. "
                    + Units.formatSize(least) + " (e.g. " + key.example + ")");
        }
        return space;
    }

    static int recycleSegments(Builder given) {
        ConfigKey key = ConfigKey.COMMITLOG_RECYCLE_SEGMENTS;
        if (given.recycleSegments == null) {
            return DEFAULT_RECYCLE_SEGMENTS;
        }
        int count = given.recycleSegments;
        if (count < 0 || count > MAX_RECYCLE_SEGMENTS) {
            throw ConfigException.invalid(key, shown(given, key, Integer.toString(count)), "is out of range; expected 0 (delete "
                    + "discarded segments) to " + MAX_RECYCLE_SEGMENTS + " (e.g. " + key.example + ")");
        }
        return count;
    }

    /** Direct writes are an operator's choice (docs/operations.md says when they pay); the default is the page cache's. */
    static DiskAccessMode diskAccessMode(Builder given) {
        return given.diskAccessMode != null ? given.diskAccessMode : DiskAccessMode.STANDARD;
    }

    static Set<PosixFilePermission> filePermissions(Builder given) {
        ConfigKey key = ConfigKey.COMMITLOG_FILE_MODE;
        if (given.filePermissions == null) {
            return DEFAULT_FILE_PERMISSIONS;
        }
        Set<PosixFilePermission> permissions = given.filePermissions;
        String shown = shown(given, key, FileMode.format(permissions));
        // The log reads back what it wrote, so the owner needs both; segments are data, never run.
        if (!permissions.contains(PosixFilePermission.OWNER_READ) || !permissions.contains(PosixFilePermission.OWNER_WRITE)) {
            throw ConfigException.invalid(key, shown,
                    "does not let the owner read and write; expected a mode with owner rw- and no execute bits (e.g. \"0600\")");
        }
        if (permissions.contains(PosixFilePermission.OWNER_EXECUTE) || permissions.contains(PosixFilePermission.GROUP_EXECUTE)
                || permissions.contains(PosixFilePermission.OTHERS_EXECUTE)) {
            throw ConfigException.invalid(key, shown,
                    "has execute bits; expected a mode with owner rw- and no execute bits (e.g. \"0600\")");
        }
        return Collections.unmodifiableSet(EnumSet.copyOf(permissions));
    }

    static int compressionLevel(Builder given, Compression compression) {
        ConfigKey key = ConfigKey.COMMITLOG_COMPRESSION_LEVEL;
        if (given.compressionLevel == null) {
            return compression == Compression.ZSTD ? DEFAULT_ZSTD_LEVEL : 0;
        }
        String shown = shown(given, key, Integer.toString(given.compressionLevel));
        if (compression != Compression.ZSTD) {
            throw ConfigException.invalid(key, shown, "is only used when " + ConfigKey.COMMITLOG_COMPRESSION + " is zstd, but "
                    + ConfigKey.COMMITLOG_COMPRESSION + " is " + YamlNames.of(compression) + "; remove it, or set "
                    + ConfigKey.COMMITLOG_COMPRESSION + ": zstd");
        }
        if (given.compressionLevel < MIN_ZSTD_LEVEL || given.compressionLevel > MAX_ZSTD_LEVEL) {
            throw ConfigException.invalid(key, shown, "is out of range; expected a zstd level from " + MIN_ZSTD_LEVEL + " to "
                    + MAX_ZSTD_LEVEL + " (e.g. " + key.example + ")");
        }
        return given.compressionLevel;
    }

    /** A setting that only one sync mode uses ({@link SyncMode#settings()}), given explicitly with another mode, is a mistake. */
    private static void requireMode(ConfigKey key, String shown, SyncMode mode) {
        if (mode.settings().contains(key.toString())) {
            return;
        }
        SyncMode usedBy = Arrays.stream(SyncMode.values()).filter(m -> m.settings().contains(key.toString())).findFirst().orElseThrow();
        throw ConfigException.invalid(key, shown, "is only used when " + ConfigKey.COMMITLOG_SYNC + " is "
                + YamlNames.of(usedBy) + ", but " + ConfigKey.COMMITLOG_SYNC + " is " + YamlNames.of(mode)
                + "; remove it, or set " + ConfigKey.COMMITLOG_SYNC + ": " + YamlNames.of(usedBy));
    }

    private static Duration positive(ConfigKey key, String shown, Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw ConfigException.invalid(key, shown, "is not positive; " + "expected a duration greater than zero (e.g. " + key.example + ")");
        }
        return atMostMax(key, shown, duration);
    }

    private static Duration atMostMax(ConfigKey key, String shown, Duration duration) {
        if (duration.compareTo(MAX_DURATION) > 0) {
            throw ConfigException.invalid(key, shown, "is too long; expected at most 106751d (e.g. " + key.example + ")");
        }
        return duration;
    }

    /** The value as the YAML spelled it, else as this library formats it. */
    private static String shown(Builder given, ConfigKey key, String formatted) {
        return given.spelling.getOrDefault(key, formatted);
    }
}
