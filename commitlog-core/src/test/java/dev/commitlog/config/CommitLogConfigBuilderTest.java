package dev.commitlog.config;

import static java.nio.file.attribute.PosixFilePermission.GROUP_READ;
import static java.nio.file.attribute.PosixFilePermission.OWNER_EXECUTE;
import static java.nio.file.attribute.PosixFilePermission.OWNER_READ;
import static java.nio.file.attribute.PosixFilePermission.OWNER_WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class CommitLogConfigBuilderTest {
    private static final Path DIR = Path.of("/var/lib/commitlog");

    @Test
    void defaults() {
        CommitLogConfig config = CommitLogConfig.builder(DIR).build();
        assertEquals(DIR, config.directory());
        assertEquals(SyncMode.ADAPTIVE, config.syncMode());
        assertEquals(Duration.ofMillis(10_000), config.syncPeriod());
        assertEquals(Duration.ofMillis(10), config.groupWindow());
        assertEquals(Duration.ofMillis(15_000), config.periodicLagBlock());
        assertEquals(Duration.ofMillis(10), config.durableMarkInterval());
        assertEquals(32 << 20, config.segmentSize());
        assertEquals(16 << 20, config.maxRecordSize());
        assertEquals(8L << 30, config.totalSpace());
        assertEquals(CommitFailurePolicy.STOP, config.commitFailurePolicy());
        assertEquals(ReplayPolicy.TOLERATE_TAIL, config.replayPolicy());
        assertEquals(EnumSet.of(OWNER_READ, OWNER_WRITE), config.filePermissions());
    }

    @Test
    void everySetterIsApplied() {
        CommitLogConfig config = CommitLogConfig.builder(DIR)
                .syncMode(SyncMode.PERIODIC)
                .syncPeriod(Duration.ofMillis(50))
                .periodicLagBlock(Duration.ofMillis(200))
                .durableMarkInterval(Duration.ofMillis(5))
                .segmentSize(1 << 20)
                .maxRecordSize(4096)
                .totalSpace(64L << 20)
                .commitFailurePolicy(CommitFailurePolicy.DIE)
                .replayPolicy(ReplayPolicy.SKIP_CORRUPT)
                .filePermissions(EnumSet.of(OWNER_READ, OWNER_WRITE, GROUP_READ))
                .build();
        assertEquals(Duration.ofMillis(50), config.syncPeriod());
        assertEquals(Duration.ofMillis(200), config.periodicLagBlock());
        assertEquals(Duration.ofMillis(5), config.durableMarkInterval());
        assertEquals(1 << 20, config.segmentSize());
        assertEquals(4096, config.maxRecordSize());
        assertEquals(64L << 20, config.totalSpace());
        assertEquals(CommitFailurePolicy.DIE, config.commitFailurePolicy());
        assertEquals(ReplayPolicy.SKIP_CORRUPT, config.replayPolicy());
        assertEquals(EnumSet.of(OWNER_READ, OWNER_WRITE, GROUP_READ), config.filePermissions());

        CommitLogConfig group = CommitLogConfig.builder(DIR).syncMode(SyncMode.GROUP).groupWindow(Duration.ofMillis(3)).build();
        assertEquals(SyncMode.GROUP, group.syncMode());
        assertEquals(Duration.ofMillis(3), group.groupWindow());
        assertEquals(SyncMode.BATCH, CommitLogConfig.builder(DIR).syncMode(SyncMode.BATCH).build().syncMode());
    }

    @Test
    void derivedDefaultsFollowWhatTheyDeriveFrom() {
        CommitLogConfig config = periodicBuilder().syncPeriod(Duration.ofMillis(2000)).segmentSize(1 << 20).build();
        assertEquals(Duration.ofMillis(3000), config.periodicLagBlock());
        assertEquals(1 << 19, config.maxRecordSize());
    }

    @Test
    void lagBlockDefaultIsCappedAtTheLongestDuration() {
        Duration longest = Duration.ofNanos(Long.MAX_VALUE);
        assertEquals(longest, periodicBuilder().syncPeriod(longest).build().periodicLagBlock());
    }

    @Test
    void relativeDirectoryResolvesAgainstTheWorkingDirectory() {
        CommitLogConfig config = CommitLogConfig.builder(Path.of("data/./commitlog")).build();
        assertEquals(Path.of(System.getProperty("user.dir")).resolve("data/commitlog"), config.directory());
    }

    @Test
    void missingDirectoryIsRejected() {
        ConfigException e = assertThrows(ConfigException.class, () -> CommitLogConfig.builder(null).build());
        assertEquals("commitlog_directory", e.key());
        assertNull(e.value());
        assertTrue(e.getMessage().startsWith("commitlog_directory: is required"), e.getMessage());
    }

    @Test
    void emptyDirectoryIsRejected() {
        assertRejected(() -> CommitLogConfig.builder(Path.of("")).build(), "commitlog_directory", "''");
    }

    @Test
    void syncPeriodThenBatchModeIsRejected() {
        assertRejected(() -> periodicBuilder().syncPeriod(Duration.ofSeconds(1)).syncMode(SyncMode.BATCH).build(),
                "commitlog_sync_period", "'1s' is only used when commitlog_sync is periodic, but commitlog_sync is batch");
    }

    @Test
    void syncPeriodWithGroupModeIsRejected() {
        assertRejected(() -> CommitLogConfig.builder(DIR).syncMode(SyncMode.GROUP).syncPeriod(Duration.ofSeconds(1)).build(),
                "commitlog_sync_period", "'1s'", "commitlog_sync is group");
    }

    @Test
    void groupWindowWithPeriodicModeIsRejected() {
        assertRejected(() -> CommitLogConfig.builder(DIR).groupWindow(Duration.ofMillis(5)).build(),
                "commitlog_sync_group_window", "'5ms'", "commitlog_sync is adaptive");
    }

    @Test
    void groupWindowWithBatchModeIsRejected() {
        assertRejected(() -> CommitLogConfig.builder(DIR).syncMode(SyncMode.BATCH).groupWindow(Duration.ofMillis(5)).build(),
                "commitlog_sync_group_window", "'5ms'", "commitlog_sync is batch");
    }

    @Test
    void lagBlockWithNonPeriodicModeIsRejected() {
        for (SyncMode mode : new SyncMode[] {SyncMode.BATCH, SyncMode.GROUP}) {
            assertRejected(() -> CommitLogConfig.builder(DIR).syncMode(mode).periodicLagBlock(Duration.ofSeconds(20)).build(),
                    "periodic_commitlog_sync_lag_block", "'20s'", "commitlog_sync is " + YamlNames.of(mode));
        }
    }

    @Test
    void lagBlockShorterThanThePeriodIsRejected() {
        assertRejected(() -> periodicBuilder().syncPeriod(Duration.ofSeconds(10)).periodicLagBlock(Duration.ofSeconds(9)).build(),
                "periodic_commitlog_sync_lag_block", "'9s'", "shorter than commitlog_sync_period (10s)");
    }

    @Test
    void lagBlockEqualToThePeriodIsAccepted() {
        Duration period = Duration.ofSeconds(10);
        assertEquals(period, periodicBuilder().syncPeriod(period).periodicLagBlock(period).build().periodicLagBlock());
    }

    @Test
    void zeroOrNegativeGroupWindowIsRejected() {
        assertRejected(() -> groupBuilder().groupWindow(Duration.ZERO).build(), "commitlog_sync_group_window", "'0ms'", "is not positive");
        assertRejected(() -> groupBuilder().groupWindow(Duration.ofMillis(-5)).build(), "commitlog_sync_group_window", "'-5ms'");
    }

    @Test
    void zeroOrNegativeSyncPeriodIsRejected() {
        assertRejected(() -> periodicBuilder().syncPeriod(Duration.ZERO).build(), "commitlog_sync_period", "'0ms'");
        assertRejected(() -> periodicBuilder().syncPeriod(Duration.ofSeconds(-1)).build(), "commitlog_sync_period", "'-1s'");
        assertRejected(() -> periodicBuilder().periodicLagBlock(Duration.ofSeconds(-1)).build(),
                "periodic_commitlog_sync_lag_block", "'-1s'");
    }

    @Test
    void durableMarkIntervalMayBeZeroInEveryModeButNotNegative() {
        for (SyncMode mode : SyncMode.values()) {
            CommitLogConfig config = CommitLogConfig.builder(DIR).syncMode(mode).durableMarkInterval(Duration.ZERO).build();
            assertEquals(Duration.ZERO, config.durableMarkInterval(), mode.toString());
        }
        assertRejected(() -> CommitLogConfig.builder(DIR).durableMarkInterval(Duration.ofNanos(-1)).build(),
                "commitlog_durable_mark_interval", "'-1ns'", "is negative; expected zero (rewrite the mark with every flush)");
        assertRejected(() -> CommitLogConfig.builder(DIR).durableMarkInterval(Duration.ofDays(200_000)).build(),
                "commitlog_durable_mark_interval", "is too long");
    }

    @Test
    void durationLongerThanNanosCanCountIsRejected() {
        assertRejected(() -> groupBuilder().groupWindow(Duration.ofDays(200_000)).build(), "commitlog_sync_group_window", "is too long");
    }

    @Test
    void segmentSizeBoundsAreInclusive() {
        assertEquals(64 << 10, CommitLogConfig.builder(DIR).segmentSize(64 << 10).build().segmentSize());
        assertEquals(1 << 30, CommitLogConfig.builder(DIR).segmentSize(1 << 30).build().segmentSize());
        assertRejected(() -> CommitLogConfig.builder(DIR).segmentSize(60 << 10).build(), "commitlog_segment_size", "'60KiB' is out of range");
        assertRejected(() -> CommitLogConfig.builder(DIR).segmentSize((1 << 30) + 4096).build(),
                "commitlog_segment_size", "'1048580KiB' is out of range");
        assertRejected(() -> CommitLogConfig.builder(DIR).segmentSize(-4096).build(), "commitlog_segment_size", "'-4KiB'");
    }

    @Test
    void segmentSizeMustBeAMultipleOf4096() {
        assertRejected(() -> CommitLogConfig.builder(DIR).segmentSize((64 << 10) + 512).build(),
                "commitlog_segment_size", "'66048B' is not a multiple of 4096 bytes");
    }

    @Test
    void maxRecordSizeBoundsAreInclusive() {
        int segment = 64 << 10;
        int limit = segment - CommitLogConfig.SEGMENT_OVERHEAD_BYTES;
        assertEquals(limit, CommitLogConfig.builder(DIR).segmentSize(segment).maxRecordSize(limit).build().maxRecordSize());
        assertEquals(1, CommitLogConfig.builder(DIR).maxRecordSize(1).build().maxRecordSize());
        assertRejected(() -> CommitLogConfig.builder(DIR).segmentSize(segment).maxRecordSize(limit + 1).build(),
                "max_record_size", "'65409B' does not fit in a segment", "commitlog_segment_size (64KiB)", "at most 65408B");
        assertRejected(() -> CommitLogConfig.builder(DIR).maxRecordSize(0).build(), "max_record_size", "'0B' is too small");
    }

    @Test
    void maxRecordSizeIsCheckedAgainstAnExplicitSmallerSegment() {
        assertRejected(() -> CommitLogConfig.builder(DIR).maxRecordSize(1 << 20).segmentSize(1 << 20).build(),
                "max_record_size", "'1MiB'", "commitlog_segment_size (1MiB)");
    }

    @Test
    void totalSpaceMustHoldTwoSegments() {
        assertEquals(2L << 30, CommitLogConfig.builder(DIR).segmentSize(1 << 30).totalSpace(2L << 30).build().totalSpace());
        assertRejected(() -> CommitLogConfig.builder(DIR).segmentSize(1 << 30).totalSpace((2L << 30) - 1).build(),
                "commitlog_total_space", "'2147483647B' is too small", "at least 2 x commitlog_segment_size (1GiB), i.e. 2GiB");
        assertRejected(() -> CommitLogConfig.builder(DIR).totalSpace(32L << 20).build(), "commitlog_total_space", "'32MiB'");
    }

    @Test
    void recycleSegmentsIsACountFromZero() {
        assertEquals(4, CommitLogConfig.builder(DIR).build().recycleSegments());
        assertEquals(0, CommitLogConfig.builder(DIR).recycleSegments(0).build().recycleSegments());
        assertRejected(() -> CommitLogConfig.builder(DIR).recycleSegments(-1).build(), "commitlog_recycle_segments", "'-1' is out of range",
                "expected 0 (delete discarded segments) to 1024");
        assertRejected(() -> CommitLogConfig.builder(DIR).recycleSegments(1025).build(), "commitlog_recycle_segments", "'1025'");
    }

    @Test
    void diskAccessModeIsStandardUnlessDirectIsAsked() {
        assertEquals(DiskAccessMode.STANDARD, CommitLogConfig.builder(DIR).build().diskAccessMode());
        assertEquals(DiskAccessMode.DIRECT, CommitLogConfig.builder(DIR).diskAccessMode(DiskAccessMode.DIRECT).build().diskAccessMode());
        assertEquals(DiskAccessMode.STANDARD, CommitLogConfig.builder(DIR).diskAccessMode(DiskAccessMode.DIRECT).diskAccessMode(null)
                .build().diskAccessMode(), "null unsets it, back to the default");
        assertNotEquals(CommitLogConfig.builder(DIR).build(), CommitLogConfig.builder(DIR).diskAccessMode(DiskAccessMode.DIRECT).build());
    }

    @Test
    void filePermissionsWithoutOwnerReadWriteAreRejected() {
        assertRejected(() -> CommitLogConfig.builder(DIR).filePermissions(EnumSet.of(OWNER_READ)).build(),
                "commitlog_file_mode", "'0400' does not let the owner read and write");
        assertRejected(() -> CommitLogConfig.builder(DIR).filePermissions(Set.of()).build(), "commitlog_file_mode", "'0000'");
    }

    @Test
    void filePermissionsWithExecuteBitsAreRejected() {
        assertRejected(() -> CommitLogConfig.builder(DIR).filePermissions(EnumSet.of(OWNER_READ, OWNER_WRITE, OWNER_EXECUTE)).build(),
                "commitlog_file_mode", "'0700' has execute bits");
    }

    @Test
    void filePermissionsAreCopiedAndUnmodifiable() {
        Set<PosixFilePermission> mine = EnumSet.of(OWNER_READ, OWNER_WRITE);
        CommitLogConfig.Builder builder = CommitLogConfig.builder(DIR).filePermissions(mine);
        mine.add(OWNER_EXECUTE);
        CommitLogConfig config = builder.build();
        assertEquals(EnumSet.of(OWNER_READ, OWNER_WRITE), config.filePermissions());
        assertThrows(UnsupportedOperationException.class, () -> config.filePermissions().add(GROUP_READ));
    }

    @Test
    void nullUnsetsASettingBackToItsDefault() {
        CommitLogConfig config = periodicBuilder().syncPeriod(Duration.ofSeconds(1)).syncPeriod(null)
                .syncMode(SyncMode.BATCH).build();
        assertEquals(SyncMode.BATCH, config.syncMode());
        assertEquals(Duration.ofMillis(10_000), config.syncPeriod());
    }

    @Test
    void toBuilderKeepsExplicitSettingsAndNothingElse() {
        CommitLogConfig defaults = CommitLogConfig.builder(DIR).build();
        // Defaults stay unset: switching mode is fine, and derived defaults follow the segment size.
        assertEquals(SyncMode.GROUP, defaults.toBuilder().syncMode(SyncMode.GROUP).build().syncMode());
        assertEquals(1 << 19, defaults.toBuilder().segmentSize(1 << 20).build().maxRecordSize());

        CommitLogConfig explicit = periodicBuilder().syncPeriod(Duration.ofSeconds(1)).build();
        assertEquals(explicit, explicit.toBuilder().build());
        assertRejected(() -> explicit.toBuilder().syncMode(SyncMode.BATCH).build(), "commitlog_sync_period", "'1s'");
    }

    @Test
    void builderIsNotAffectedByLaterChanges() {
        CommitLogConfig.Builder builder = CommitLogConfig.builder(DIR);
        CommitLogConfig first = builder.build();
        builder.syncMode(SyncMode.BATCH);
        assertEquals(SyncMode.ADAPTIVE, first.syncMode());
        assertEquals(SyncMode.GROUP, first.toBuilder().syncMode(SyncMode.GROUP).build().syncMode());
    }

    @Test
    void equalityIsByResolvedValues() {
        CommitLogConfig byDefault = CommitLogConfig.builder(DIR).build();
        CommitLogConfig explicit = CommitLogConfig.builder(DIR).syncMode(SyncMode.ADAPTIVE).segmentSize(32 << 20).build();
        assertEquals(byDefault, explicit);
        assertEquals(byDefault.hashCode(), explicit.hashCode());
        assertNotEquals(byDefault, CommitLogConfig.builder(DIR).replayPolicy(ReplayPolicy.STRICT).build());
        assertNotEquals(byDefault, CommitLogConfig.builder(Path.of("/elsewhere")).build());
    }

    @Test
    void toStringPrintsEveryKeyWithItsValueInUnits() {
        String text = CommitLogConfig.builder(DIR).build().toString();
        assertEquals("CommitLogConfig{commitlog_directory: " + DIR + ", commitlog_sync: adaptive, commitlog_sync_period: 10s, "
                + "commitlog_sync_group_window: 10ms, periodic_commitlog_sync_lag_block: 15s, commitlog_durable_mark_interval: 10ms, "
                + "commitlog_segment_size: 32MiB, "
                + "max_record_size: 16MiB, commitlog_total_space: 8GiB, commitlog_recycle_segments: 4, "
                + "commitlog_disk_access_mode: standard, commit_failure_policy: stop, "
                + "commitlog_replay_policy: tolerate_tail, commitlog_file_mode: 0600, commitlog_compression: none, "
                + "commitlog_compression_level: 0, commitlog_encryption: none}", text);
    }

    @Test
    void toStringRoundTripsThroughYaml() {
        CommitLogConfig[] configs = {
            CommitLogConfig.builder(DIR).build(),
            periodicBuilder().syncPeriod(Duration.ofNanos(1_500_001)).periodicLagBlock(Duration.ofMinutes(2))
                    .segmentSize(1 << 30).maxRecordSize(12345).totalSpace(3L << 30).recycleSegments(4).diskAccessMode(DiskAccessMode.DIRECT)
                    .commitFailurePolicy(CommitFailurePolicy.DIE).replayPolicy(ReplayPolicy.STRICT)
                    .filePermissions(EnumSet.of(OWNER_READ, OWNER_WRITE, GROUP_READ)).build(),
            CommitLogConfig.builder(DIR).syncMode(SyncMode.GROUP).groupWindow(Duration.ofNanos(500_000)).build(),
            CommitLogConfig.builder(DIR).syncMode(SyncMode.BATCH).replayPolicy(ReplayPolicy.SKIP_CORRUPT).build(),
            CommitLogConfig.builder(DIR).syncMode(SyncMode.ADAPTIVE).durableMarkInterval(Duration.ZERO).build(),
            CommitLogConfig.builder(DIR).durableMarkInterval(Duration.ofNanos(250_000)).build(),
            CommitLogConfig.builder(DIR).compression(Compression.ZSTD).compressionLevel(19).encryption(Encryption.AES_GCM).build(),
            CommitLogConfig.builder(DIR).compression(Compression.LZ4).build(),
        };
        for (CommitLogConfig config : configs) {
            assertEquals(config, CommitLogConfig.parse(yamlOf(config)), config.toString());
        }
    }

    /** toString as YAML, leaving out the keys its sync mode does not use (they would be contradictions). */
    static String yamlOf(CommitLogConfig config) {
        String body = config.toString();
        body = body.substring("CommitLogConfig{".length(), body.length() - 1);
        StringBuilder yaml = new StringBuilder();
        for (String entry : body.split(", ")) {
            String key = entry.substring(0, entry.indexOf(':'));
            boolean unused = key.equals("commitlog_sync_group_window") ? config.syncMode() != SyncMode.GROUP
                    : key.contains("period") || key.contains("lag_block") ? config.syncMode() != SyncMode.PERIODIC
                    : key.equals("commitlog_compression_level") ? config.compression() != Compression.ZSTD
                    : false;
            if (!unused) {
                yaml.append(entry).append('\n');
            }
        }
        return yaml.toString();
    }

    private static CommitLogConfig.Builder periodicBuilder() {
        return CommitLogConfig.builder(DIR).syncMode(SyncMode.PERIODIC);
    }

    private static CommitLogConfig.Builder groupBuilder() {
        return CommitLogConfig.builder(DIR).syncMode(SyncMode.GROUP);
    }

    /** Asserts a ConfigException naming {@code key} whose message contains each fragment (the value among them). */
    static ConfigException assertRejected(Executable build, String key, String... fragments) {
        ConfigException e = assertThrows(ConfigException.class, build);
        assertEquals(key, e.key(), e.getMessage());
        assertTrue(e.getMessage().contains(key + ":"), e.getMessage());
        for (String fragment : fragments) {
            assertTrue(e.getMessage().contains(fragment), () -> "expected '" + fragment + "' in: " + e.getMessage());
        }
        return e;
    }
}
