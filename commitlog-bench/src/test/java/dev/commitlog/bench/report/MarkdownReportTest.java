package dev.commitlog.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.sweep.CellResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report of one pass, from made-up cells: every table, the targets and the note under them, the CSV. */
class MarkdownReportTest {
    private static final Column BATCH = new Column("batch", Column.COMMITLOG, true, false);
    private static final Column ADAPTIVE = new Column("adaptive", Column.COMMITLOG, true, false);
    private static final Column FSYNC_EACH = new Column("fsync-each", "fsync-each", true, false);

    @Test
    void onePassShowsEachCellsFiguresTheTargetsAndHowToJudgeACloseOne() {
        SweepResults r = new SweepResults(List.of("a header line"), List.of(1, 8), List.of(BATCH, ADAPTIVE, FSYNC_EACH),
                List.of(cell("batch", 1, 5_000, 250), cell("adaptive", 1, 5_100, 300), peer(1, 5_000),
                        cell("batch", 8, 20_000, 900), cell("adaptive", 8, 23_000, 1_100), peer(8, 4_100)),
                4096, List.of(cell("adaptive-async", 1, 250_000, 2)));

        String md = MarkdownReport.render(r);

        assertTrue(md.contains("a header line  \n"), md);
        assertTrue(md.contains("### Throughput (ops/s)\n\n| threads | batch | adaptive | fsync-each |\n|---:|---:|---:|---:|\n"
                + "| 1 | 5,000 | 5,100 | 5,000 |\n| 8 | 20,000 | 23,000 | 4,100 |\n"), md);
        assertTrue(md.contains("| threads | batch / fsync-each | adaptive / fsync-each |\n|---:|---:|---:|\n"
                + "| 1 | 1.00 | 1.02 |\n| 8 | 4.88 | 5.61 |\n"), md);
        assertTrue(md.contains("| Adaptive at 1 thread / Batch at 1 thread | 1.02 (5,100 / 5,000 ops/s) | >= 1.00 | met |\n"), md);
        assertTrue(md.contains("| Adaptive / best of batch, every thread count | min 1.02 at 1 thread (1: 1.02 batch, "
                + "8: 1.15 batch) | >= 0.95 at every row | met |\n"), md);
        assertTrue(md.contains("|---|---|---|---|\n"), md);
        int targetsEnd = md.indexOf("| Replay from the page cache");
        assertEquals("\n\n" + TargetReport.PAIR_NOTE + "\n",
                md.substring(md.indexOf('\n', targetsEnd), md.indexOf("\n### p99 append latency")),
                "one line under the targets table says how a close target is judged");
        assertTrue(TargetReport.PAIR_NOTE.contains("`pair --a adaptive --b batch --floor 0.95`"), TargetReport.PAIR_NOTE);
        assertTrue(md.contains("| threads | batch | adaptive | fsync-each |\n|---:|---:|---:|---:|\n"
                + "| 1 | 250 | 300 | 250 |\n"), "p99 table:\n" + md);
        assertTrue(md.contains("### Records per flush (flushes/s), from each system's own counters\n\n"
                + "| threads | batch | adaptive | fsync-each |\n|---:|---:|---:|---:|\n"
                + "| 1 | 2.0 (2,500/s) | 2.0 (2,550/s) | 1.0 (5,000/s) |\n"), md);
        assertTrue(md.contains("### Device bytes written per payload byte appended (per framed byte)\n\n"
                + "| threads | batch | adaptive | fsync-each |\n|---:|---:|---:|---:|\n"
                + "| 1 | 2.00 (1.79) | 2.00 (1.79) | 1.50 |\n| 8 | 2.00 (1.79) | 2.00 (1.79) | 1.50 |\n\n"
                + MarkdownReport.DEVICE_NOTE + "\n"), md);
        assertTrue(md.contains("### CPU per record (us, process user + system)\n\n"
                + "| threads | batch | adaptive | fsync-each |\n|---:|---:|---:|---:|\n"
                + "| 1 | 5.00 | 5.10 | 9.50 |\n| 8 | 20 | 23 | 9.50 |\n\n"
                + MarkdownReport.CPU_NOTE + "\n"), md);
        assertTrue(md.contains("| submitting threads | mode | durable appends/s | p50 submit to completion (us) | p99 (us) "
                + "| records per flush (flushes/s) | device bytes per payload byte (per framed byte) | CPU per record (us) |\n"
                + "|---:|---|---:|---:|---:|---:|---:|---:|\n"
                + "| 1 | adaptive-async | 250,000 | 1.00 | 2.00 | 2.0 (125,000/s) | 2.00 (1.79) | 250 |\n"), md);
        assertTrue(md.contains("```csv\n" + CsvWriter.HEADER + "\n"
                + "commitlog,batch,1,5000.0,1.000,250.000,300.000,2500.0,2.00,500000,2.000,1.786,5.000\n"), md);
        assertTrue(md.endsWith("commitlog,adaptive-async,1,250000.0,1.000,2.000,300.000,125000.0,2.00,25000000,2.000,1.786,250.000\n```\n"), md);
    }

    @Test
    void noDeviceOrCpuTableWhenNoCellMeasuredThem() {
        CellResult unmeasured = new CellResult(Column.COMMITLOG, "batch", 1, 5_000, 1, 250, 300, 2_500, 2, 500_000,
                Double.NaN, Double.NaN);
        String md = MarkdownReport.render(new SweepResults(List.of(), List.of(1), List.of(BATCH), List.of(unmeasured),
                4096, List.of()));

        assertFalse(md.contains("### Device bytes"), md);
        assertFalse(md.contains("### CPU per record"), md);
        assertTrue(md.contains("commitlog,batch,1,5000.0,1.000,250.000,300.000,2500.0,2.00,500000,,,\n"), md);
    }

    /**
     * A commit-log cell with two records per flush and the given p99, whose device took twice the
     * payload (100-byte records in 112-byte frames), costing a microsecond of CPU per record per 1,000 ops/s.
     */
    private static CellResult cell(String mode, int threads, double ops, double p99Us) {
        return new CellResult(Column.COMMITLOG, mode, threads, ops, 1, p99Us, 300, ops / 2, 2, ops * 100, 2.0, 2.0 * 100 / 112,
                ops / 1_000);
    }

    private static CellResult peer(int threads, double ops) {
        return new CellResult("fsync-each", "", threads, ops, 1, 250, 300, ops, 1, ops * 100, 1.5, Double.NaN, 9.5);
    }
}
