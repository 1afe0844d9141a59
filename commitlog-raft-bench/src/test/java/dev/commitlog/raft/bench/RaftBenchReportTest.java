package dev.commitlog.raft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's ratios from known passes: medians, the memory ceiling and the paired table. */
class RaftBenchReportTest {
    private static final Cell CELL = new Cell(3, 128, 8, 64);

    private static Passes passes(Contender contender, double... opsPerSec) {
        List<Measurement> runs = new ArrayList<>();
        for (double ops : opsPerSec) {
            runs.add(Measurement.run(CELL, contender, ops, 1, 2, 0.5, 0, 3.25));
        }
        return new Passes(CELL, contender, runs);
    }

    private static String print(RaftBenchReport report) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        report.printTables(new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void pairsRatiosPassByPassAndShowsTheCeiling() {
        // RocksDB drifts 4x over the passes. Batch's per-pass ratios are 3, 1.25, 1.25, 3, 1.25, 1.25:
        // paired, the median is 1.25; the medians' ratio (300 over 200) says 1.5.
        Passes rocks = passes(Contender.ROCKSDB, 100, 200, 400, 100, 200, 400);
        Passes batch = passes(Contender.COMMITLOG_BATCH, 300, 250, 500, 300, 250, 500);
        Passes memory = passes(Contender.MEMORY, 300, 600, 1200, 300, 600, 1200);
        List<Contender> contenders = List.of(Contender.ROCKSDB, Contender.COMMITLOG_BATCH, Contender.MEMORY);
        RaftBenchReport report = new RaftBenchReport(List.of(rocks, batch, memory), contenders);

        assertEquals(1.25, batch.over(rocks).orElseThrow().median(), 1e-9);
        assertEquals(1.5, report.ratio(CELL).orElseThrow(), 1e-9);
        assertEquals(3.0, report.ratio(CELL, Contender.MEMORY).orElseThrow(), 1e-9);
        String printed = print(report);
        assertTrue(printed.contains("paired by pass (6 passes)"), printed);
        assertTrue(printed.lines().anyMatch(l -> l.matches("\\s+8\\s+64 \\|\\s+1\\.250 \\[1\\.250-3\\.000\\] \\|\\s+3\\.000 \\[3\\.000-3\\.000\\]")),
                "paired row in\n" + printed);
        assertTrue(printed.lines().anyMatch(l -> l.matches("\\s+8\\s+64 \\|.*\\|\\s+1\\.50x \\|\\s+3\\.00x \\|.*")),
                "median row with both ratios in\n" + printed);
        // Over memory, pass by pass: rocksdb 1/3 in every pass; batch 1, 0.417, 0.417, twice over.
        assertTrue(printed.contains("ops/s over memory's, paired by pass (6 passes)"), printed);
        assertTrue(printed.lines().anyMatch(l -> l.matches("\\s+8\\s+64 \\|\\s+0\\.333 \\[0\\.333-0\\.333\\] \\|\\s+0\\.417 \\[0\\.417-1\\.000\\]")),
                "paired row over memory in\n" + printed);
    }

    @Test
    void leavesOutPassesWhereEitherFailed() {
        Passes rocks = new Passes(CELL, Contender.ROCKSDB, List.of(
                Measurement.run(CELL, Contender.ROCKSDB, 100, 1, 2, 0.5, 0, Double.NaN),
                Measurement.failed(CELL, Contender.ROCKSDB, "no leader"),
                Measurement.run(CELL, Contender.ROCKSDB, 100, 1, 2, 0.5, 0, Double.NaN)));
        Passes adaptive = passes(Contender.COMMITLOG_ADAPTIVE, 150, 900, 250);

        var ratio = adaptive.over(rocks).orElseThrow();
        assertEquals(2, ratio.pairs());
        assertEquals(2.0, ratio.median(), 1e-9);
        assertEquals("2.000 (2 pairs)", RaftBenchReport.paired(ratio));
    }

    @Test
    void deviceBytesPerByteAreATableBlockAndTheCsvsLastColumn(@TempDir Path dir) throws Exception {
        Passes rocks = passes(Contender.ROCKSDB, 100);
        Passes batch = new Passes(CELL, Contender.COMMITLOG_BATCH, List.of(
                Measurement.run(CELL, Contender.COMMITLOG_BATCH, 150, 1, 2, 0.5, 0, 6.5),
                Measurement.run(CELL, Contender.COMMITLOG_BATCH, 150, 1, 2, 0.5, 0, Double.NaN),
                Measurement.run(CELL, Contender.COMMITLOG_BATCH, 150, 1, 2, 0.5, 0, 7.5)));
        RaftBenchReport report = new RaftBenchReport(List.of(rocks, batch), List.of(Contender.ROCKSDB, Contender.COMMITLOG_BATCH));

        String printed = print(report);
        assertTrue(printed.lines().anyMatch(l -> l.contains("| fsyncs/op") && l.contains("| device B/B")), printed);
        assertTrue(printed.lines().anyMatch(l -> l.matches("\\s+8\\s+64 \\|.*\\|\\s+0\\.500\\s+0\\.500 \\|\\s+3\\.3\\s+7\\.0")),
                "fsyncs/op then device bytes per byte (the median of the measured passes) in\n" + printed);

        Path csv = dir.resolve("raft.csv");
        report.writeCsv(csv);
        List<String> lines = Files.readAllLines(csv);
        assertTrue(lines.get(0).endsWith(",error,device_bytes_per_byte,open_ms,init_ms,retained_bytes,retained_apparent_bytes,"
                + "reopen_error"), lines.get(0));
        assertEquals(List.of("3,128,8,64,rocksdb,100.0,1.000,2.000,0.5000,0,,3.250,,,,,",
                "3,128,8,64,commitlog-batch,150.0,1.000,2.000,0.5000,0,,7.000,,,,,"), lines.subList(1, 3));
    }

    @Test
    void onePassPrintsNoPairedTable() {
        RaftBenchReport report = new RaftBenchReport(List.of(passes(Contender.ROCKSDB, 100), passes(Contender.COMMITLOG_BATCH, 150)),
                List.of(Contender.ROCKSDB, Contender.COMMITLOG_BATCH));
        String printed = print(report);
        assertTrue(printed.contains("1.50x"), printed);
        assertTrue(!printed.contains("paired by pass"), printed);
    }

    @Test
    void segmentHasARatioColumnAndReopensATableAndTheCsvsLastColumns(@TempDir Path dir) throws Exception {
        List<Passes> all = List.of(
                reopened(Contender.ROCKSDB, 100, 2100, 600, 30 << 20),
                reopened(Contender.ROCKSDB_SEGMENT, 125, 2500, 900, 40 << 20),
                reopened(Contender.COMMITLOG_ADAPTIVE, 180, 1500, 300, 192 << 20),
                passes(Contender.MEMORY, 400));
        List<Contender> contenders = List.of(Contender.ROCKSDB, Contender.ROCKSDB_SEGMENT, Contender.COMMITLOG_ADAPTIVE,
                Contender.MEMORY);
        RaftBenchReport report = new RaftBenchReport(all, contenders);

        assertEquals(1.25, report.ratio(CELL, Contender.ROCKSDB_SEGMENT).orElseThrow(), 1e-9);
        String printed = print(report);
        assertTrue(printed.lines().anyMatch(l -> l.matches("\\s+\\|.*\\| best commitlog \\|\\s+segment \\|\\s+memory \\|.*")),
                "ratio headings in\n" + printed);
        assertTrue(printed.lines().anyMatch(l -> l.matches("\\s+8\\s+64 \\|.*\\|\\s+1\\.80x \\|\\s+1\\.25x \\|\\s+4\\.00x \\|.*")),
                "best commit log, segment and memory over rocksdb in\n" + printed);
        assertTrue(printed.contains("replicas 3, payload 128 B: reopen after the run"), printed);
        assertTrue(printed.lines().anyMatch(l -> l.matches(
                        "\\s+8\\s+64 \\|\\s+2100\\s+2500\\s+1500\\s+- \\|\\s+600\\s+900\\s+300\\s+- \\|\\s+30\\.0\\s+40\\.0\\s+192\\.0\\s+-")),
                "open ms, init ms and MiB on disk per contender, none for memory, in\n" + printed);

        Path csv = dir.resolve("raft.csv");
        report.writeCsv(csv);
        List<String> lines = Files.readAllLines(csv);
        assertEquals("3,128,8,64,rocksdb-segment,125.0,1.000,2.000,0.5000,0,,3.250,2500.0,900.0,41943040,2147483648,", lines.get(2));
        assertTrue(lines.get(4).endsWith(",memory,400.0,1.000,2.000,0.5000,0,,3.250,,,,,"), lines.get(4));
    }

    @Test
    void noReopenTableWhenNoRunWasReopened() {
        RaftBenchReport report = new RaftBenchReport(List.of(passes(Contender.ROCKSDB, 100), passes(Contender.ROCKSDB_SEGMENT, 90)),
                List.of(Contender.ROCKSDB, Contender.ROCKSDB_SEGMENT));
        String printed = print(report);
        assertTrue(printed.contains("0.90x"), printed);
        assertTrue(!printed.contains("reopen after the run"), printed);
    }

    /** One pass with a reopen: 2 GiB apparent (sparse files), {@code allocated} bytes on disk. */
    private static Passes reopened(Contender contender, double opsPerSec, double openMillis, double initMillis, long allocated) {
        Measurement m = Measurement.run(CELL, contender, opsPerSec, 1, 2, 0.5, 0, 3.25)
                .withReopen(openMillis, initMillis, new DiskUsage(2L << 30, allocated));
        return new Passes(CELL, contender, List.of(m));
    }

    @Test
    void aFailedReopenKeepsTheRunsFiguresAndSaysWhy(@TempDir Path dir) throws Exception {
        Passes rocks = reopened(Contender.ROCKSDB, 100, 2100, 600, 30 << 20);
        Passes adaptive = new Passes(CELL, Contender.COMMITLOG_ADAPTIVE, List.of(Measurement.run(CELL, Contender.COMMITLOG_ADAPTIVE,
                150, 1, 2, 0.5, 0, 3.25).withReopenFailure("java.lang.IllegalStateException: 2 of 8 groups have \"no\" leader")));
        RaftBenchReport report = new RaftBenchReport(List.of(rocks, adaptive), List.of(Contender.ROCKSDB, Contender.COMMITLOG_ADAPTIVE));

        Measurement median = report.medians().get(1);
        assertTrue(median.ok() && !median.clean(), "ran, did not reopen: " + median);
        assertEquals(1.5, report.ratio(CELL).orElseThrow(), 1e-9, "the run's figures stand");
        String printed = print(report);
        assertTrue(printed.lines().anyMatch(l -> l.matches("\\s+8\\s+64 \\|\\s+2100\\s+- \\|\\s+600\\s+- \\|\\s+30\\.0\\s+-")),
                "no reopen figures for adaptive in\n" + printed);
        assertTrue(printed.contains("reopen failed: " + CELL + " commitlog-adaptive: java.lang.IllegalStateException: 2 of 8"), printed);

        Path csv = dir.resolve("raft.csv");
        report.writeCsv(csv);
        assertEquals("3,128,8,64,commitlog-adaptive,150.0,1.000,2.000,0.5000,0,,3.250,,,,,"
                + "\"java.lang.IllegalStateException: 2 of 8 groups have 'no' leader\"", Files.readAllLines(csv).get(2));
    }
}
