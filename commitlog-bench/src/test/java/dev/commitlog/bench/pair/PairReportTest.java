package dev.commitlog.bench.pair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.sweep.CellResults;
import dev.commitlog.bench.sweep.ProcessCpu;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The pair report's CPU figures, from made-up slices: each column's total, the paired ratio, the CSV's per-slice fields. */
class PairReportTest {
    private static final double NAN = Double.NaN;

    private static ColumnFigures figures(int appends, long cpuNanos) {
        Histogram latency = CellResults.newHistogram();
        for (int i = 0; i < appends; i++) {
            latency.recordValue(100_000);
        }
        return new ColumnFigures(latency, -1, -1, cpuNanos);
    }

    private static final double[] RATES_A = {100, 100, 100, 100, 100, 100, 100};
    private static final double[] RATES_B = {50, 50, 50, 50, 50, 50, 50};

    @Test
    void cpuPerRecordIsEachColumnsTotalAndTheMedianOfThePairsRatios() throws Exception {
        PairOptions options = PairOptions.parse(List.of("--a", "adaptive+aes", "--b", "adaptive"));
        SlicedDuel.Rates row = new SlicedDuel.Rates(4, RATES_A, RATES_B,
                new double[] {25, 26, 24, 25, 27, 23, NAN}, new double[] {5, 5, 5, 5, 5, 5, 5},
                figures(1_000, 25_000_000L), figures(2_000, 10_000_000L));

        assertEquals(25.0, row.aFigures().cpuUsPerRecord(), 1e-9, "25 ms over 1,000 appends");
        assertEquals(5.0, row.bFigures().cpuUsPerRecord(), 1e-9, "10 ms over 2,000 appends");
        assertTrue(Double.isNaN(figures(10, ProcessCpu.UNKNOWN).cpuUsPerRecord()));
        assertTrue(Double.isNaN(figures(0, 1_000_000L).cpuUsPerRecord()), "no append, no figure");

        String md = PairReport.markdown(options, List.of("header"), List.of(row));
        // the pair whose a slice was not measured is left out: six ratios 5, 5.2, 4.8, 5, 5.4, 4.6
        assertTrue(md.contains("### CPU per record (us, process user + system), each column over its measured slices\n\n"
                + "| threads | adaptive+aes | adaptive | ratio (median of pairs) | 95% interval |\n|---:|---:|---:|---:|---:|\n"
                + "| 4 | 25 | 5.00 | 5.000 | 4.600-5.400 |\n\n" + PairReport.CPU_NOTE + "\n"), md);

        String csv = PairReport.csv(options, List.of(row));
        List<String> lines = csv.lines().toList();
        assertEquals("a,b,threads,pair,a_ops_per_s,b_ops_per_s,ratio,a_cpu_us_per_record,b_cpu_us_per_record", lines.get(0));
        assertEquals("adaptive+aes,adaptive,4,2,100.0,50.0,2.0000,26.000,5.000", lines.get(2));
        assertEquals("adaptive+aes,adaptive,4,7,100.0,50.0,2.0000,,5.000", lines.get(7), "not measured: an empty field");
    }

    @Test
    void noCpuTableWhenNoSliceWasMeasured() throws Exception {
        PairOptions options = PairOptions.parse(List.of("--a", "batch", "--b", "adaptive"));
        double[] none = {NAN, NAN, NAN, NAN, NAN, NAN, NAN};
        SlicedDuel.Rates row = new SlicedDuel.Rates(1, RATES_A, RATES_B, none, none,
                figures(10, ProcessCpu.UNKNOWN), figures(10, ProcessCpu.UNKNOWN));
        assertNull(PairReport.cpuRatio(row));
        assertFalse(PairReport.markdown(options, List.of(), List.of(row)).contains("### CPU per record"));
        assertTrue(PairReport.csv(options, List.of(row)).contains("\nbatch,adaptive,1,1,100.0,50.0,2.0000,,\n"));
    }
}
