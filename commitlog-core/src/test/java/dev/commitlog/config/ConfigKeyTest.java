package dev.commitlog.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigKeyTest {
    @ParameterizedTest
    @CsvSource({
        "commitlog_sync_perod, commitlog_sync_period",
        "commitlog_synk, commitlog_sync",
        "comitlog_directory, commitlog_directory",
        "commitlog_sync_period_in_ms, commitlog_sync_period",
        "commitlog_segment_size_in_mb, commitlog_segment_size",
        "commitlog_total_space_in_mb, commitlog_total_space",
        "periodic_commitlog_sync_lag_block_in_ms, periodic_commitlog_sync_lag_block",
        "commitlog_sync_batch_window, commitlog_sync_group_window",
        "max_record_sizes, max_record_size",
        "commit_failure_polcy, commit_failure_policy",
        "commitlog_file_mod, commitlog_file_mode",
    })
    void suggestsThePlausibleKey(String unknown, String expected) {
        assertEquals(Optional.of(expected), ConfigKey.closest(unknown).map(ConfigKey::toString));
    }

    @ParameterizedTest
    @ValueSource(strings = {"foo", "data_file_directories", "x", "", "cluster_name"})
    void suggestsNothingForUnrelatedKeys(String unknown) {
        assertEquals(Optional.empty(), ConfigKey.closest(unknown));
    }
}
