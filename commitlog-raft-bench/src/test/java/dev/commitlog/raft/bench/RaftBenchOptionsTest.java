package dev.commitlog.raft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RaftBenchOptionsTest {

    private static String rejected(String... args) {
        return assertThrows(UsageException.class, () -> RaftBenchOptions.parse(List.of(args))).getMessage();
    }

    @Test
    void badValuesAreRejectedNamingTheFlagAndTheValue() {
        assertEquals("--inflight '8,0': 0 is outside 1..16384", rejected("--inflight", "8,0"));
        assertEquals("--groups 'x': 'x' is not a whole number", rejected("--groups=x"));
        assertEquals("--replicas 2: a group has 1, 3 or 5 voters", rejected("--replicas", "1,2"));
        assertEquals("unknown contender 'rocks' (contenders: rocksdb, rocksdb-segment, commitlog-adaptive, commitlog-batch, memory)",
                rejected("--contenders", "commitlog-batch,rocks"));
        assertEquals("--seconds '0' must be above 0 to 3600 seconds", rejected("--seconds", "0"));
        assertEquals("--payload needs a value", rejected("--payload"));
        assertEquals("unknown argument --group", rejected("--group", "8"));
        assertEquals("--repeats '3,5' takes one number", rejected("--repeats", "3,5"));
        assertEquals("--no-reopen takes no value (given 'false')", rejected("--no-reopen=false"));
        assertEquals("--quick takes no value (given 'yes')", rejected("--quick=yes"));
    }

    @Test
    void defaultsAreTheIssuesGridAndQuickNarrowsOnlyWhatIsNotGiven() throws UsageException {
        RaftBenchOptions defaults = RaftBenchOptions.parse(List.of());
        assertEquals(List.of(3), defaults.replicas());
        assertEquals(List.of(128, 1024), defaults.payloads());
        assertEquals(List.of(1, 8, 24), defaults.groups());
        assertEquals(List.of(1, 8, 64, 256), defaults.inflight());
        assertEquals(List.of(Contender.ROCKSDB, Contender.ROCKSDB_SEGMENT, Contender.COMMITLOG_ADAPTIVE, Contender.COMMITLOG_BATCH),
                defaults.contenders(), "memory is JRaft's ceiling, measured only when asked for");
        assertEquals(96, defaults.measurements());
        assertTrue(defaults.reopen(), "every run is reopened unless --no-reopen");
        assertFalse(RaftBenchOptions.parse(List.of("--no-reopen")).reopen());

        RaftBenchOptions quick = RaftBenchOptions.parse(List.of("--groups", "24", "--quick", "--repeats", "3"));
        assertEquals(List.of(24), quick.groups(), "an explicit --groups wins over --quick, before or after it");
        assertEquals(List.of(64), quick.inflight());
        assertEquals(List.of(128), quick.payloads());
        assertEquals(Duration.ofSeconds(1), quick.measure());
        assertEquals(12, quick.measurements());
        assertTrue(quick.measure().compareTo(defaults.measure()) < 0);
    }
}
