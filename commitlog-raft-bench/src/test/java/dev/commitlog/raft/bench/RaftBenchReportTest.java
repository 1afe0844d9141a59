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
            runs.add(new Measurement(CELL, contender, ops, 1, 2, 0.5, 0, null, 3.25));
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
    }

    @Test
    void leavesOutPassesWhereEitherFailed() {
        Passes rocks = new Passes(CELL, Contender.ROCKSDB, List.of(
                new Measurement(CELL, Contender.ROCKSDB, 100, 1, 2, 0.5, 0, null, Double.NaN),
                Measurement.failed(CELL, Contender.ROCKSDB, "no leader"),
                new Measurement(CELL, Contender.ROCKSDB, 100, 1, 2, 0.5, 0, null, Double.NaN)));
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
                new Measurement(CELL, Contender.COMMITLOG_BATCH, 150, 1, 2, 0.5, 0, null, 6.5),
                new Measurement(CELL, Contender.COMMITLOG_BATCH, 150, 1, 2, 0.5, 0, null, Double.NaN),
                new Measurement(CELL, Contender.COMMITLOG_BATCH, 150, 1, 2, 0.5, 0, null, 7.5)));
        RaftBenchReport report = new RaftBenchReport(List.of(rocks, batch), List.of(Contender.ROCKSDB, Contender.COMMITLOG_BATCH));

        String printed = print(report);
        assertTrue(printed.lines().anyMatch(l -> l.contains("| fsyncs/op") && l.contains("| device B/B")), printed);
        assertTrue(printed.lines().anyMatch(l -> l.matches("\\s+8\\s+64 \\|.*\\|\\s+0\\.500\\s+0\\.500 \\|\\s+3\\.3\\s+7\\.0")),
                "fsyncs/op then device bytes per byte (the median of the measured passes) in\n" + printed);

        Path csv = dir.resolve("raft.csv");
        report.writeCsv(csv);
        List<String> lines = Files.readAllLines(csv);
        assertTrue(lines.get(0).endsWith(",error,device_bytes_per_byte"), lines.get(0));
        assertEquals(List.of("3,128,8,64,rocksdb,100.0,1.000,2.000,0.5000,0,,3.250",
                "3,128,8,64,commitlog-batch,150.0,1.000,2.000,0.5000,0,,7.000"), lines.subList(1, 3));
    }

    @Test
    void onePassPrintsNoPairedTable() {
        RaftBenchReport report = new RaftBenchReport(List.of(passes(Contender.ROCKSDB, 100), passes(Contender.COMMITLOG_BATCH, 150)),
                List.of(Contender.ROCKSDB, Contender.COMMITLOG_BATCH));
        String printed = print(report);
        assertTrue(printed.contains("1.50x"), printed);
        assertTrue(!printed.contains("paired by pass"), printed);
    }
}
