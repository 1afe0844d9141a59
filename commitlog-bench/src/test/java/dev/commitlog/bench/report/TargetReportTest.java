package dev.commitlog.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.commitlog.bench.sweep.CellResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The targets read from made-up cells, so every verdict and every figure shown is known in advance. */
class TargetReportTest {
    private static final Column BATCH = commitLog("batch", false);
    private static final Column GROUP_1 = commitLog("group-1ms", false);
    private static final Column GROUP_10 = commitLog("group-10ms", false);
    private static final Column ADAPTIVE = commitLog("adaptive", false);
    private static final Column CLASSIC = commitLog("batch-classic", true);
    private static final Column ROCKSDB = new Column("rocksdb", "rocksdb", true, false);

    @Test
    void adaptiveIsJudgedAgainstTheBestOfBatchAndEveryGroupWindowRowByRow() {
        SweepResults r = results(Map.of(
                1, new double[] {5_000, 800, 95, 5_100, 9_000, 4_000},
                2, new double[] {7_000, 7_500, 190, 7_200, 100_000, 5_000},
                8, new double[] {20_000, 25_000, 760, 23_000, 90_000, 10_000}), List.of());

        Target rows = target(r, "Adaptive / best of");
        assertEquals("Adaptive / best of batch, group-1ms, group-10ms, every thread count", rows.name());
        assertEquals("min 0.92 at 8 threads (1: 1.02 batch, 2: 0.96 group-1ms, 8: 0.92 group-1ms)", rows.measured());
        assertEquals("MISSED", rows.verdict());

        Target lone = target(r, "Adaptive at 1 thread");
        assertEquals("1.02 (5,100 / 5,000 ops/s)", lone.measured());
        assertEquals("met", lone.verdict());

        Target rocks = target(r, "Best durable mode / RocksDB");
        assertEquals("min 2.50 at 8 threads (8: 2.50 group-1ms)", rocks.measured(), "the ablation column's 90,000 is not a mode");
    }

    @Test
    void adaptiveWithinFivePercentEverywhereIsMetButBelowBatchAtOneThreadIsNot() {
        SweepResults r = results(Map.of(
                1, new double[] {5_000, 800, 95, 4_900, 0, 4_000},
                8, new double[] {20_000, 25_000, 760, 23_750, 0, 10_000}), List.of());
        assertEquals("met", target(r, "Adaptive / best of").verdict());
        assertEquals("min 0.95 at 8 threads (1: 0.98 batch, 8: 0.95 group-1ms)", target(r, "Adaptive / best of").measured());
        assertEquals("MISSED", target(r, "Adaptive at 1 thread").verdict());
    }

    @Test
    void asyncTargetTakesTheBestModeWithOneSubmitter() {
        List<CellResult> async = List.of(cell("batch-async", 1, 150_000), cell("adaptive-async", 1, 250_000),
                cell("adaptive-async", 4, 300_000));
        SweepResults r = results(Map.of(1, new double[] {5_000, 800, 95, 5_100, 0, 4_000}), async);
        Target t = target(r, "Async, one submitting thread");
        assertEquals("Async, one submitting thread (4096 in flight): durable appends/s", t.name());
        assertEquals("250,000 (batch-async 150,000, adaptive-async 250,000)", t.measured());
        assertEquals(">= 200,000", t.floor());
        assertEquals("met", t.verdict());

        SweepResults slow = results(Map.of(1, new double[] {5_000, 800, 95, 5_100, 0, 4_000}),
                List.of(cell("adaptive-async", 1, 199_000), cell("adaptive-async", 4, 300_000)));
        assertEquals("MISSED", target(slow, "Async, one submitting thread").verdict());

        SweepResults none = results(Map.of(1, new double[] {5_000, 800, 95, 5_100, 0, 4_000}), List.of());
        assertEquals("not measured: needs the asynchronous section with 1 submitting thread",
                target(none, "Async, one submitting thread").verdict());
    }

    @Test
    void recordsPerFlushIsJudgedOnTheFastestDurableModeNotOnTheBestGrouping() {
        List<CellResult> cells = List.of(
                perFlush("batch", 90_000, 160.4), perFlush("group-10ms", 25_000, 256.0),
                perFlush("adaptive", 85_000, 230.0), perFlush("batch-classic", 95_000, 250.0));
        SweepResults r = new SweepResults(List.of(), List.of(256), List.of(BATCH, GROUP_10, ADAPTIVE, CLASSIC), cells,
                4096, List.of());
        Target t = target(r, "Records per flush at 256");
        assertEquals("Records per flush at 256 threads (the fastest durable mode)", t.name());
        assertEquals("160.4 batch, the fastest (batch 160.4, group-10ms 256.0, adaptive 230.0)", t.measured(),
                "the ablation column is not a mode");
        assertEquals(">= 204.8 (0.8 x 256)", t.floor());
        assertEquals("MISSED", t.verdict(), "group-10ms's 256 records per flush do not make batch's 160 meet it");

        SweepResults adaptiveFastest = new SweepResults(List.of(), List.of(256), List.of(BATCH, ADAPTIVE),
                List.of(perFlush("batch", 80_000, 160.4), perFlush("adaptive", 85_000, 230.0)), 4096, List.of());
        assertEquals("met", target(adaptiveFastest, "Records per flush at 256").verdict());
    }

    @Test
    void withoutAdaptiveTheAdaptiveTargetsAreNotMeasured() {
        SweepResults r = new SweepResults(List.of(), List.of(1), List.of(BATCH), List.of(cell("batch", 1, 5_000)),
                4096, List.of());
        assertEquals("not measured: needs adaptive and batch or group in the same rows",
                target(r, "Adaptive / best of").verdict());
        assertEquals("not measured: needs adaptive and batch at 1 thread", target(r, "Adaptive at 1 thread").verdict());
    }

    /** Per row: ops/s of batch, group-1ms, group-10ms, adaptive, batch-classic, rocksdb (0: not run). */
    private static SweepResults results(Map<Integer, double[]> rows, List<CellResult> async) {
        List<Column> columns = List.of(BATCH, GROUP_1, GROUP_10, ADAPTIVE, CLASSIC, ROCKSDB);
        List<Integer> threads = rows.keySet().stream().sorted().toList();
        List<CellResult> cells = new ArrayList<>();
        for (int t : threads) {
            double[] ops = rows.get(t);
            for (int i = 0; i < columns.size(); i++) {
                if (ops[i] > 0) {
                    Column c = columns.get(i);
                    cells.add(c.commitLog() ? cell(c.label(), t, ops[i])
                            : new CellResult(c.system(), "", t, ops[i], 1, 2, 3, 1, 1, ops[i] * 100, Double.NaN, Double.NaN));
                }
            }
        }
        return new SweepResults(List.of(), threads, columns, cells, 4096, async);
    }

    private static CellResult cell(String mode, int threads, double ops) {
        return new CellResult(Column.COMMITLOG, mode, threads, ops, 1, 2, 3, 1, 1, ops * 100, Double.NaN, Double.NaN);
    }

    private static CellResult perFlush(String mode, double ops, double recordsPerFlush) {
        return new CellResult(Column.COMMITLOG, mode, 256, ops, 1, 2, 3, ops / recordsPerFlush, recordsPerFlush, ops * 100,
                Double.NaN, Double.NaN);
    }

    private static Column commitLog(String label, boolean ablation) {
        return new Column(label, Column.COMMITLOG, true, ablation);
    }

    private static Target target(SweepResults r, String namePrefix) {
        return TargetReport.evaluate(r).stream().filter(t -> t.name().startsWith(namePrefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no target named " + namePrefix + "..."));
    }
}
