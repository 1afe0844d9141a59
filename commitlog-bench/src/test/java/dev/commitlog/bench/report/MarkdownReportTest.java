package dev.commitlog.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.sweep.CellResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The report of a sweep with rounds: medians in the tables, the spread beside them, the legend under the targets. */
class MarkdownReportTest {

    @Test
    void roundsAddTheSpreadTableTheAsyncSpreadColumnAndTheLegend() {
        String md = MarkdownReport.render(RoundsFixture.results());

        assertTrue(md.contains("| 1 | 5,000 | 800 | 5,100 |\n"), "throughput shows the medians:\n" + md);
        assertTrue(md.contains("### Spread across the 3 rounds (lowest/highest round's ops/s, % from the median)\n\n"
                + "| threads | batch | group-1ms | adaptive |\n|---:|---:|---:|---:|\n"
                + "| 1 | -4/+4 | -10/+10 | -4/+2 |\n"
                + "| 8 | -5/+5 | -4/+4 | -4/+9 |\n"), md);
        assertTrue(md.contains("| 1 | adaptive-async | 250,000 | 1.00 | 2.00 | 1.0 (1/s) | -4/+4 |\n"), md);
        assertTrue(md.contains("\nFigures are medians of 3 rounds; the verdict is the medians'. [a-b; k of n rounds >= floor] after a ratio"), md);
        assertTrue(md.contains("| Adaptive at 1 thread / Batch at 1 thread | 1.02 (5,100 / 5,000 ops/s) [1.00-1.02; 3 of 3 rounds >= 1.00] |"), md);
        assertTrue(md.contains("commitlog,adaptive,8,23000.0,1.000,2.000,3.000,1.0,1.00,2300000,3,22000.0,25000.0\n"),
                "the CSV's last columns: rounds, ops_min, ops_max:\n" + md);
    }

    @Test
    void oneRoundShowsNoSpreadAndNoRanges() {
        CellResult batch = new CellResult(Column.COMMITLOG, "batch", 1, 5_000, 1, 2, 3, 1, 1, 500_000);
        CellResult adaptive = new CellResult(Column.COMMITLOG, "adaptive", 1, 5_100, 1, 2, 3, 1, 1, 510_000);
        SweepResults r = new SweepResults(List.of(), List.of(1),
                List.of(new Column("batch", Column.COMMITLOG, true, false),
                        new Column("adaptive", Column.COMMITLOG, true, false)),
                List.of(batch, adaptive), 4096, List.of());
        assertEquals(1, r.rounds());

        String md = MarkdownReport.render(r);
        assertFalse(md.contains("Spread across"), md);
        assertFalse(md.contains("Figures are medians"), md);
        assertTrue(md.contains("| Adaptive at 1 thread / Batch at 1 thread | 1.02 (5,100 / 5,000 ops/s) | >= 1.00 | met |"), md);
        assertTrue(md.contains("commitlog,batch,1,5000.0,1.000,2.000,3.000,1.0,1.00,500000,1,5000.0,5000.0\n"), md);
    }
}
