package dev.commitlog.config;

import static dev.commitlog.config.CommitLogConfigBuilderTest.assertRejected;
import static java.nio.file.attribute.PosixFilePermission.GROUP_READ;
import static java.nio.file.attribute.PosixFilePermission.OTHERS_READ;
import static java.nio.file.attribute.PosixFilePermission.OWNER_READ;
import static java.nio.file.attribute.PosixFilePermission.OWNER_WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class YamlConfigLoaderTest {
    private static final String DIR = "commitlog_directory: /var/lib/commitlog\n";

    @Test
    void onlyTheDirectoryGivesTheDefaults() {
        assertEquals(CommitLogConfig.builder(Path.of("/var/lib/commitlog")).build(), CommitLogConfig.parse(DIR));
    }

    @Test
    void everyKeyIsParsed() {
        CommitLogConfig config = CommitLogConfig.parse(DIR
                + "commitlog_sync: periodic\n"
                + "commitlog_sync_period: 2s\n"
                + "periodic_commitlog_sync_lag_block: 5000ms\n"
                + "commitlog_durable_mark_interval: 0ms\n"
                + "commitlog_segment_size: 1GiB\n"
                + "max_record_size: 512KiB\n"
                + "commitlog_total_space: 20GiB\n"
                + "commitlog_disk_access_mode: direct\n"
                + "commit_failure_policy: die\n"
                + "commitlog_replay_policy: skip_corrupt\n"
                + "commitlog_file_mode: \"0644\"\n");
        assertEquals(Path.of("/var/lib/commitlog"), config.directory());
        assertEquals(SyncMode.PERIODIC, config.syncMode());
        assertEquals(Duration.ofSeconds(2), config.syncPeriod());
        assertEquals(Duration.ofSeconds(5), config.periodicLagBlock());
        assertEquals(Duration.ZERO, config.durableMarkInterval());
        assertEquals(1 << 30, config.segmentSize());
        assertEquals(512 << 10, config.maxRecordSize());
        assertEquals(20L << 30, config.totalSpace());
        assertEquals(DiskAccessMode.DIRECT, config.diskAccessMode());
        assertEquals(CommitFailurePolicy.DIE, config.commitFailurePolicy());
        assertEquals(ReplayPolicy.SKIP_CORRUPT, config.replayPolicy());
        assertEquals(EnumSet.of(OWNER_READ, OWNER_WRITE, GROUP_READ, OTHERS_READ), config.filePermissions());

        CommitLogConfig group = CommitLogConfig.parse(DIR + "commitlog_sync: group\ncommitlog_sync_group_window: 500us\n");
        assertEquals(SyncMode.GROUP, group.syncMode());
        assertEquals(Duration.ofNanos(500_000), group.groupWindow());
        assertEquals(SyncMode.BATCH, CommitLogConfig.parse(DIR + "commitlog_sync: batch\n").syncMode());
        assertEquals(ReplayPolicy.STRICT, CommitLogConfig.parse(DIR + "commitlog_replay_policy: strict\n").replayPolicy());
        assertEquals(ReplayPolicy.TOLERATE_TAIL, CommitLogConfig.parse(DIR + "commitlog_replay_policy: tolerate_tail\n").replayPolicy());
        assertEquals(CommitFailurePolicy.STOP, CommitLogConfig.parse(DIR + "commit_failure_policy: stop\n").commitFailurePolicy());
    }

    @Test
    void flowStyleAndQuotedValuesAreAccepted() {
        CommitLogConfig config = CommitLogConfig.parse("{commitlog_directory: '/data/log', \"commitlog_sync\": \"batch\"}");
        assertEquals(Path.of("/data/log"), config.directory());
        assertEquals(SyncMode.BATCH, config.syncMode());
    }

    @Test
    void unquotedFileModeIsReadAsOctalText() {
        // YAML 1.2 resolves a plain 0600 to the integer 600; the loader uses the text as written.
        assertEquals(EnumSet.of(OWNER_READ, OWNER_WRITE), CommitLogConfig.parse(DIR + "commitlog_file_mode: 0600\n").filePermissions());
        assertEquals(EnumSet.of(OWNER_READ, OWNER_WRITE), CommitLogConfig.parse(DIR + "commitlog_file_mode: 0o600\n").filePermissions());
    }

    @Test
    void numberAsDirectoryIsAcceptedAsItsText() {
        assertEquals(Path.of(System.getProperty("user.dir"), "2024"), CommitLogConfig.parse("commitlog_directory: 2024\n").directory());
    }

    @Test
    void relativeDirectoryResolvesAgainstTheWorkingDirectoryNotTheFile() {
        assertEquals(Path.of(System.getProperty("user.dir"), "data", "commitlog"),
                CommitLogConfig.parse("commitlog_directory: data/commitlog\n").directory());
    }

    @Test
    void documentedExampleMessage() {
        ConfigException e = assertThrows(ConfigException.class, () -> CommitLogConfig.parse(DIR + "commitlog_sync_period: 10 seconds\n"));
        assertEquals("line 2: commitlog_sync_period: '10 seconds' is not a duration; expected a whole number followed by one of "
                + "ns, us, ms, s, m, h, d (e.g. 10000ms)", e.getMessage());
        assertEquals("commitlog_sync_period", e.key());
        assertEquals("10 seconds", e.value());
    }

    // ---- unknown keys

    @Test
    void unknownKeySuggestsTheClosestKnownKey() {
        ConfigException e = rejected(DIR + "commitlog_sync_perod: 10s\n", "commitlog_sync_perod", "'10s'", "unknown key");
        assertTrue(e.getMessage().endsWith("did you mean commitlog_sync_period?"), e.getMessage());
    }

    @Test
    void oldCassandraKeySuggestsTheNewName() {
        rejected(DIR + "commitlog_segment_size_in_mb: 32\n", "commitlog_segment_size_in_mb", "'32'", "did you mean commitlog_segment_size?");
    }

    @Test
    void unknownKeyWithNoPlausibleMatchListsTheKnownKeys() {
        rejected(DIR + "cluster_name: test\n", "cluster_name", "'test'", "expected one of commitlog_directory, commitlog_sync,",
                "commitlog_file_mode");
    }

    @Test
    void nonScalarKeyIsRejected() {
        ConfigException e = assertThrows(ConfigException.class, () -> CommitLogConfig.parse(DIR + "? [a, b]\n: 1\n"));
        assertTrue(e.getMessage().contains("[a, b]: is not a key"), e.getMessage());
    }

    // ---- wrong types

    @Test
    void listWhereAValueIsExpectedIsRejected() {
        rejected(DIR + "commitlog_sync: [periodic, batch]\n", "commitlog_sync", "'[periodic, batch]' is a list", "expected a single value");
    }

    @Test
    void mappingWhereAValueIsExpectedIsRejected() {
        rejected(DIR + "commitlog_sync_period:\n  value: 10\n  unit: s\n", "commitlog_sync_period", "'{value: 10, unit: s}' is a mapping");
    }

    @Test
    void listAsDirectoryIsRejected() {
        rejected("commitlog_directory:\n  - /a\n  - /b\n", "commitlog_directory", "'[/a, /b]' is a list");
    }

    @Test
    void numberWhereANameIsExpectedIsRejected() {
        rejected(DIR + "commitlog_sync: 1\n", "commitlog_sync", "'1' is not one of periodic | batch | group");
    }

    @Test
    void booleanWhereANameIsExpectedIsRejected() {
        rejected(DIR + "commit_failure_policy: true\n", "commit_failure_policy", "'true' is not one of stop | die");
    }

    @Test
    void unknownEnumNameIsRejected() {
        rejected(DIR + "commitlog_replay_policy: ignore\n", "commitlog_replay_policy", "'ignore'", "tolerate_tail | strict | skip_corrupt");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "~", "null"})
    void emptyValueIsRejected(String empty) {
        rejected(DIR + "commitlog_sync_period: " + empty + "\n", "commitlog_sync_period", "'" + empty + "' is empty",
                "remove the line to use the default");
    }

    // ---- units

    @Test
    void bareNumberDurationIsRejected() {
        rejected(DIR + "commitlog_sync_period: 10000\n", "commitlog_sync_period", "'10000' has no unit", "(e.g. 10000ms)");
    }

    @Test
    void bareNumberSizeIsRejected() {
        rejected(DIR + "commitlog_segment_size: 33554432\n", "commitlog_segment_size", "'33554432' has no unit", "(e.g. 32MiB)");
    }

    @Test
    void unknownDurationUnitIsRejected() {
        rejected(DIR + "commitlog_sync_period: 10sec\n", "commitlog_sync_period", "'10sec' has an unknown unit 'sec'");
    }

    @Test
    void decimalSizeUnitIsRejected() {
        rejected(DIR + "commitlog_total_space: 8GB\n", "commitlog_total_space", "'8GB' has an unknown unit 'GB'", "GiB");
    }

    @Test
    void negativeDurationIsRejected() {
        rejected(DIR + "commitlog_sync_period: -10ms\n", "commitlog_sync_period", "'-10ms' is negative");
    }

    @Test
    void recycleSegmentsIsReadAsACount() {
        rejected(DIR + "commitlog_recycle_segments: four\n", "commitlog_recycle_segments", "'four' is not a whole number");
        rejected(DIR + "commitlog_recycle_segments: -2\n", "commitlog_recycle_segments", "'-2' is out of range");
    }

    @Test
    void diskAccessModeIsStandardOrDirect() {
        assertEquals(DiskAccessMode.STANDARD, CommitLogConfig.parse(DIR + "commitlog_disk_access_mode: standard\n").diskAccessMode());
        rejected(DIR + "commitlog_disk_access_mode: o_direct\n", "commitlog_disk_access_mode",
                "'o_direct' is not one of standard | direct");
        rejected(DIR + "commitlog_disk_access_mode: DIRECT\n", "commitlog_disk_access_mode", "'DIRECT' is not one of standard | direct");
        rejected(DIR + "commitlog_disk_access_mode: mmap\n", "commitlog_disk_access_mode", "'mmap' is not one of standard | direct");
    }

    @Test
    void fractionalSizeIsRejected() {
        rejected(DIR + "max_record_size: 0.5MiB\n", "max_record_size", "'0.5MiB' is not a whole number");
    }

    @Test
    void overflowingSizeIsRejected() {
        rejected(DIR + "commitlog_total_space: 9999999999GiB\n", "commitlog_total_space", "'9999999999GiB' is too large");
    }

    @Test
    void segmentSizeTooLargeForAnIntIsRejectedAsOutOfRange() {
        rejected(DIR + "commitlog_segment_size: 4GiB\n", "commitlog_segment_size", "'4GiB' is out of range", "from 64KiB to 1GiB");
    }

    @Test
    void maxRecordSizeTooLargeForAnIntIsRejected() {
        rejected(DIR + "max_record_size: 3GiB\n", "max_record_size", "'3GiB' does not fit in a segment");
    }

    // ---- ranges and contradictions

    @Test
    void segmentSizeOutOfRangeIsRejected() {
        rejected(DIR + "commitlog_segment_size: 32KiB\n", "commitlog_segment_size", "'32KiB' is out of range");
    }

    @Test
    void segmentSizeNotAMultipleOf4096IsRejected() {
        rejected(DIR + "commitlog_segment_size: 100000B\n", "commitlog_segment_size", "'100000B' is not a multiple of 4096 bytes");
    }

    @Test
    void maxRecordSizeLargerThanTheSegmentAllowsIsRejected() {
        rejected(DIR + "commitlog_segment_size: 64KiB\nmax_record_size: 64KiB\n", "max_record_size", "'64KiB' does not fit in a segment",
                "commitlog_segment_size (64KiB) minus 128B", "at most 65408B");
    }

    @Test
    void zeroMaxRecordSizeIsRejected() {
        rejected(DIR + "max_record_size: 0B\n", "max_record_size", "'0B' is too small");
    }

    @Test
    void totalSpaceBelowTwoSegmentsIsRejected() {
        rejected(DIR + "commitlog_segment_size: 1GiB\ncommitlog_total_space: 1536MiB\n", "commitlog_total_space", "'1536MiB' is too small",
                "at least 2 x commitlog_segment_size");
    }

    @Test
    void syncPeriodWithBatchModeIsRejected() {
        rejected(DIR + "commitlog_sync: batch\ncommitlog_sync_period: 10000ms\n", "commitlog_sync_period", "'10000ms' is only used when "
                + "commitlog_sync is periodic, but commitlog_sync is batch");
    }

    @Test
    void syncPeriodWithGroupModeIsRejected() {
        rejected(DIR + "commitlog_sync_period: 10s\ncommitlog_sync: group\n", "commitlog_sync_period", "'10s'", "commitlog_sync is group");
    }

    @Test
    void groupWindowWithNonGroupModeIsRejected() {
        rejected(DIR + "commitlog_sync_group_window: 10ms\n", "commitlog_sync_group_window", "'10ms'", "commitlog_sync is adaptive");
        rejected(DIR + "commitlog_sync: batch\ncommitlog_sync_group_window: 10ms\n", "commitlog_sync_group_window", "'10ms'",
                "commitlog_sync is batch");
    }

    @Test
    void lagBlockWithNonPeriodicModeIsRejected() {
        rejected(DIR + "commitlog_sync: group\nperiodic_commitlog_sync_lag_block: 15s\n", "periodic_commitlog_sync_lag_block",
                "'15s'", "commitlog_sync is group");
    }

    @Test
    void lagBlockShorterThanThePeriodIsRejected() {
        rejected(DIR + "commitlog_sync: periodic\ncommitlog_sync_period: 10s\nperiodic_commitlog_sync_lag_block: 9999ms\n", "periodic_commitlog_sync_lag_block",
                "'9999ms' is shorter than commitlog_sync_period (10s)");
    }

    @Test
    void zeroGroupWindowIsRejected() {
        rejected(DIR + "commitlog_sync: group\ncommitlog_sync_group_window: 0ms\n", "commitlog_sync_group_window", "'0ms' is not positive");
    }

    @Test
    void negativeDurableMarkIntervalIsRejected() {
        rejected(DIR + "commitlog_durable_mark_interval: -1ms\n", "commitlog_durable_mark_interval", "'-1ms' is negative");
    }

    @Test
    void zeroSyncPeriodIsRejected() {
        rejected(DIR + "commitlog_sync: periodic\ncommitlog_sync_period: 0s\n", "commitlog_sync_period", "'0s' is not positive");
    }

    @Test
    void fileModeWithExecuteBitsIsRejected() {
        rejected(DIR + "commitlog_file_mode: \"0755\"\n", "commitlog_file_mode", "'0755' has execute bits");
    }

    @Test
    void fileModeWithoutOwnerWriteIsRejected() {
        rejected(DIR + "commitlog_file_mode: \"0444\"\n", "commitlog_file_mode", "'0444' does not let the owner read and write");
    }

    @Test
    void symbolicFileModeIsRejected() {
        rejected(DIR + "commitlog_file_mode: rw-------\n", "commitlog_file_mode", "'rw-------' is not a file mode");
    }

    @Test
    void controlCharactersAreEscapedInMessages() {
        ConfigException e = rejected("commitlog_directory: \"a\\0b\"\n", "commitlog_directory", "'a\\u0000b' is not a valid path");
        assertEquals("a\0b", e.value());
    }

    // ---- the document as a whole

    @Test
    void missingDirectoryIsRejected() {
        ConfigException e = rejected("commitlog_sync: batch\n", "commitlog_directory", "is required");
        assertNull(e.value());
    }

    @Test
    void emptyDirectoryIsRejected() {
        rejected("commitlog_directory: ''\n", "commitlog_directory", "'' is empty");
        rejected("commitlog_directory:\n", "commitlog_directory", "'' is empty", "it is required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   \n\n", "# only a comment\n", "---\n", "~\n"})
    void emptyDocumentIsRejected(String text) {
        ConfigException e = documentRejected(text);
        assertTrue(e.getMessage().contains("is empty; expected a YAML mapping of settings"), e.getMessage());
    }

    @Test
    void brokenYamlIsRejected() {
        ConfigException e = documentRejected(DIR + "commitlog_sync: [periodic\n");
        assertTrue(e.getMessage().startsWith("the configuration: is not valid YAML:"), e.getMessage());
    }

    @Test
    void badIndentationIsRejected() {
        ConfigException e = documentRejected(DIR + "  commitlog_sync: batch\n");
        assertTrue(e.getMessage().contains("is not valid YAML"), e.getMessage());
    }

    @Test
    void severalDocumentsAreRejected() {
        ConfigException e = documentRejected(DIR + "---\n" + DIR);
        assertTrue(e.getMessage().contains("is not valid YAML"), e.getMessage());
    }

    @Test
    void topLevelListIsRejected() {
        ConfigException e = documentRejected("- commitlog_directory: /a\n");
        assertTrue(e.getMessage().contains("the top level is a list; expected a mapping"), e.getMessage());
    }

    @Test
    void topLevelScalarIsRejected() {
        ConfigException e = documentRejected("/var/lib/commitlog\n");
        assertTrue(e.getMessage().contains("the top level is the single value '/var/lib/commitlog'; expected a mapping"), e.getMessage());
    }

    @Test
    void duplicateKeyIsRejected() {
        ConfigException e = rejected(DIR + "commitlog_sync: periodic\ncommitlog_sync: batch\n", "commitlog_sync", "'batch'",
                "duplicate key", "already set on line 2");
        assertTrue(e.getMessage().startsWith("line 3: "), e.getMessage());
    }

    @Test
    void duplicateKeyIsRejectedHoweverItIsQuoted() {
        rejected(DIR + "'commitlog_directory': /other\n", "commitlog_directory", "'/other'", "duplicate key");
    }

    @Test
    void messagesGiveTheLine() {
        ConfigException e = rejected(DIR + "\n# comment\ncommitlog_segment_size: 64KiB\nmax_record_size: 1MiB\n", "max_record_size", "'1MiB'");
        assertTrue(e.getMessage().startsWith("line 5: max_record_size: "), e.getMessage());
    }

    @Test
    void contradictionPointsAtTheKeyTheMessageNames() {
        ConfigException e = rejected("commitlog_sync_period: 5s\n" + DIR + "commitlog_sync: batch\n", "commitlog_sync_period", "'5s'");
        assertTrue(e.getMessage().startsWith("line 1: "), e.getMessage());
    }

    private static ConfigException rejected(String yaml, String key, String... fragments) {
        return assertRejected(() -> CommitLogConfig.parse(yaml), key, fragments);
    }

    private static ConfigException documentRejected(String yaml) {
        ConfigException e = assertThrows(ConfigException.class, () -> CommitLogConfig.parse(yaml));
        assertNull(e.key(), e.getMessage());
        assertNull(e.value(), e.getMessage());
        return e;
    }
}
