package dev.commitlog.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.sut.SyncAblation;
import dev.commitlog.bench.sweep.AsyncOptions;
import dev.commitlog.bench.sweep.CellTiming;
import dev.commitlog.bench.sweep.LogSections;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.bench.sweep.SweepOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SweepOptionsTest {

    @Test
    void defaultsCoverEveryModeAndPeer() throws UsageException {
        SweepOptions o = SweepOptions.parse(List.of());
        assertEquals(List.of(1, 2, 4, 8, 16, 32, 64, 128, 256), o.threads());
        assertEquals(List.of("periodic", "batch", "group", "adaptive"), o.modes());
        assertEquals(List.of(1, 2, 10), o.groupWindowsMs());
        assertFalse(o.ablation());
        assertEquals(new AsyncOptions(List.of(1, 4), 4096, List.of("batch", "adaptive")), o.async());
        assertTrue(o.async().enabled());
        assertEquals(List.of("rocksdb", "fsync-each", "lock-group", "chronicle-queue"), o.peers());
        assertEquals(CellTiming.DEFAULT, o.timing());
        assertEquals(100, o.recordBytes());
        assertEquals(0, o.deviceLatencyMicros());
        assertFalse(o.keep());
        assertFalse(o.discard());
    }

    @Test
    void deviceLatencyIsForTheCommitLogAloneAndNeedsPeersNone() throws UsageException {
        assertEquals(1000, SweepOptions.parse(List.of("--device-latency-us", "1000", "--peers", "none")).deviceLatencyMicros());
        UsageException withPeers = assertThrows(UsageException.class,
                () -> SweepOptions.parse(List.of("--device-latency-us", "1000")));
        assertEquals("--device-latency-us slows the commit log's flushes only; add --peers none", withPeers.getMessage());
        UsageException negative = assertThrows(UsageException.class,
                () -> SweepOptions.parse(List.of("--device-latency-us", "-1", "--peers", "none")));
        assertEquals("--device-latency-us: '-1' is not an integer in 0..1000000", negative.getMessage());
    }

    @Test
    void compressionEncryptionAndPayloadAreParsedAndCheckedByName() throws UsageException {
        SweepOptions o = SweepOptions.parse(List.of("--compression", "lz4", "--encryption", "aes-gcm", "--payload", "json"));
        assertEquals(new LogSections(Compression.LZ4, Encryption.AES_GCM, true), o.sections());
        assertEquals(LogSections.PLAIN, SweepOptions.parse(List.of()).sections());
        assertEquals("--compression: 'snappy' is not one of none, lz4, zstd",
                assertThrows(UsageException.class, () -> SweepOptions.parse(List.of("--compression", "snappy"))).getMessage());
        assertEquals("--encryption: 'aes' is not one of none, aes-gcm",
                assertThrows(UsageException.class, () -> SweepOptions.parse(List.of("--encryption", "aes"))).getMessage());
        assertEquals("--payload: 'text' is not one of random, json",
                assertThrows(UsageException.class, () -> SweepOptions.parse(List.of("--payload", "text"))).getMessage());
        String json = new String(new LogSections(Compression.NONE, Encryption.NONE, true).record(100), StandardCharsets.US_ASCII);
        assertEquals(100, json.length());
        assertTrue(json.startsWith("{\"id\":"), json);
    }

    /** Writers cycle through distinct records: a section of copies of one record would overstate compression. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void writersAppendDistinctRecordsOfOneLength(boolean json) {
        byte[][] records = new LogSections(Compression.LZ4, Encryption.NONE, json).records(1024);
        assertEquals(1, Integer.bitCount(records.length), records.length + " records");
        assertTrue(records.length >= 64, records.length + " records");
        Set<String> distinct = new HashSet<>();
        for (byte[] record : records) {
            assertEquals(1024, record.length);
            distinct.add(new String(record, StandardCharsets.ISO_8859_1));
        }
        assertEquals(records.length, distinct.size(), "every record differs");
    }

    /** One descriptive pass: the sweep takes no flag to repeat or gate cells. */
    @Test
    void roundsAndTheDeviceGateAreUnknownArguments() {
        for (List<String> removed : List.of(List.of("--rounds", "3"), List.of("--rounds=3"),
                List.of("--device-gate", "2"), List.of("--device-gate"))) {
            UsageException e = assertThrows(UsageException.class, () -> SweepOptions.parse(removed), removed.toString());
            assertEquals("unknown argument " + removed.get(0), e.getMessage());
        }
    }

    @Test
    void listsValuesAndFull() throws UsageException {
        SweepOptions o = SweepOptions.parse(List.of("--threads", "1,8", "--modes", "BATCH,group",
                "--group-window-ms=1,2,10", "--full", "--seconds", "0.5", "--peers", "none",
                "--record-bytes", "4096", "--csv", "x.csv", "--keep", "--ablation",
                "--async-submitters", "2,16", "--async-in-flight=65536", "--async-modes", "Adaptive,group"));
        assertEquals(List.of(1, 8), o.threads());
        assertEquals(List.of("batch", "group"), o.modes());
        assertEquals(List.of(1, 2, 10), o.groupWindowsMs());
        assertEquals(new CellTiming(CellTiming.FULL.warmup(), Duration.ofMillis(500)), o.timing());
        assertEquals(List.of(), o.peers());
        assertEquals(4096, o.recordBytes());
        assertEquals(Path.of("x.csv"), o.csv());
        assertTrue(o.keep());
        assertTrue(SweepOptions.parse(List.of("--discard")).discard());
        assertTrue(o.ablation());
        assertEquals(SyncAblation.labels(), o.ablations());
        assertEquals(new AsyncOptions(List.of(2, 16), 65536, List.of("adaptive", "group")), o.async());
    }

    @Test
    void ablationColumnsCanBeChosen() throws UsageException {
        SweepOptions o = SweepOptions.parse(List.of("--ablation=adaptive-nogather,batch-classic", "--peers", "none"));
        assertEquals(List.of("adaptive-nogather", "batch-classic"), o.ablations());
        UsageException e = assertThrows(UsageException.class, () -> SweepOptions.parse(List.of("--ablation=adaptive-fast")));
        assertTrue(e.getMessage().contains("unknown ablation column 'adaptive-fast'"), e.getMessage());
    }

    @Test
    void asyncSectionCanBeSkipped() throws UsageException {
        SweepOptions o = SweepOptions.parse(List.of("--async-submitters", "none"));
        assertEquals(List.of(), o.async().submitters());
        assertFalse(o.async().enabled());
    }

    @Test
    void asyncSectionCanRunAlone() throws UsageException {
        SweepOptions o = SweepOptions.parse(List.of("--modes", "none", "--peers", "none"));
        assertEquals(List.of(), o.modes());
        assertTrue(o.async().enabled());
    }

    @Test
    void periodicIsRefusedInTheAsyncSectionWithAReason() {
        UsageException e = assertThrows(UsageException.class,
                () -> SweepOptions.parse(List.of("--async-modes", "batch,periodic")));
        assertTrue(e.getMessage().startsWith("--async-modes: periodic completes"), e.getMessage());
    }

    @Test
    void badFlagsAndValuesAreUsageErrors() {
        for (List<String> bad : List.of(
                List.of("--bogus"),
                List.of("--threads", "0"),
                List.of("--threads", "1,,2"),
                List.of("--threads", "4,4"),
                List.of("--modes", "async"),
                List.of("--group-window-ms", "0"),
                List.of("--seconds", "-1"),
                List.of("--seconds", "NaN"),
                List.of("--record-bytes", "big"),
                List.of("--peers", "mysql"),
                List.of("--async-submitters", "0"),
                List.of("--async-submitters", "1,1"),
                List.of("--async-in-flight", "0"),
                List.of("--async-in-flight", "65537"),
                List.of("--async-modes", "sometimes"),
                List.of("--async-in-flight"),
                List.of("--modes", "none", "--peers", "none", "--async-submitters", "none"),
                List.of("--threads"))) {
            assertThrows(UsageException.class, () -> SweepOptions.parse(bad), bad.toString());
        }
    }

    @Test
    void mainReportsOneLineAndExitCodeTwo() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        int exit = BenchMain.run(List.of("sweep", "--threads", "x"), sink,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, exit);
        String message = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, message.lines().count(), message);
        assertTrue(message.contains("--threads"), message);

        assertEquals(2, BenchMain.run(List.of("frobnicate"), sink, sink));
        assertEquals(0, BenchMain.run(List.of("sweep", "--help"), sink, sink));
    }
}
