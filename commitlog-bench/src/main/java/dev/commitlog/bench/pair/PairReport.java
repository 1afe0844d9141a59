package dev.commitlog.bench.pair;

import dev.commitlog.bench.stats.PairedRatio;
import dev.commitlog.bench.report.Numbers;
import dev.commitlog.bench.report.OutputFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The {@code pair} command's markdown report (rates, latency and grouping, CPU per record) and its CSV of every pair. */
final class PairReport {

    private PairReport() {
    }

    /** The markdown report: the header lines, then a row per thread count. */
    static String markdown(PairOptions options, List<String> header, List<SlicedDuel.Rates> rows) {
        String floor = PairedRatio.format(options.floor());
        StringBuilder md = new StringBuilder();
        md.append("## Paired comparison: ").append(options.a()).append(" over ").append(options.b()).append("\n\n");
        header.forEach(line -> md.append(line).append("  \n"));
        md.append("\n| threads | ").append(options.a()).append(" ops/s | ").append(options.b())
                .append(" ops/s | ratio (median of pairs) | 95% interval | pairs >= ").append(floor)
                .append(" | reading against ").append(floor).append(" |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---|\n");
        for (SlicedDuel.Rates row : rows) {
            PairedRatio r = PairedRatio.of(row.a(), row.b());
            md.append(String.format(Locale.ROOT, "| %d | %,.0f | %,.0f | %s | %s | %d of %d%s | %s |%n", row.threads(),
                    PairedRatio.median(row.a()), PairedRatio.median(row.b()), PairedRatio.format(r.median()), r.interval(),
                    r.reaching(options.floor()), r.pairs(), r.empty() == 0 ? "" : " (" + r.empty() + " empty)",
                    r.against(options.floor()).words()));
        }
        md.append("\nops/s: the median slice of each column. The ratio is the median over pairs of (")
                .append(options.a()).append(" slice / ").append(options.b())
                .append(" slice), the two slices of a pair adjacent in time; the interval is the sign test's, "
                        + "distribution-free. \"above\" and \"below\": the whole interval lies on that side of the floor; "
                        + "\"not resolved\": it straddles the floor (the two are closer than this run can tell apart). \"empty\": pairs "
                        + "in which neither slice made an append (a stall longer than both), left out.\n");
        figures(md, options, rows);
        cpu(md, options, rows);
        return md.toString();
    }

    /** What the CPU table counts, under it. */
    static final String CPU_NOTE = "CPU per record: the process's CPU time (user + system, every thread: writers, both "
            + "systems' own threads, the collector and the compiler) over each measured slice, over the appends that started "
            + "in it. One column appends at a time, so a slice's CPU is its column's, with whatever the idle column's "
            + "background threads did meanwhile. Each column's figure is its CPU over all its measured slices over all their "
            + "appends; the ratio is the median over pairs of (a's slice / b's slice), pairs where either slice's figure is "
            + "missing left out. The clock counts 10 ms ticks, a few percent of a 200 ms slice on two cores; the step "
            + "averages out over the pairs.";

    /** Each column's CPU per record over the row, and the paired ratio of the slices' figures; nothing when not measured. */
    private static void cpu(StringBuilder md, PairOptions options, List<SlicedDuel.Rates> rows) {
        if (rows.stream().allMatch(r -> Double.isNaN(r.aFigures().cpuUsPerRecord()) && Double.isNaN(r.bFigures().cpuUsPerRecord()))) {
            return;
        }
        md.append("\n### CPU per record (us, process user + system), each column over its measured slices\n\n");
        md.append("| threads | ").append(options.a()).append(" | ").append(options.b())
                .append(" | ratio (median of pairs) | 95% interval |\n");
        md.append("|---:|---:|---:|---:|---:|\n");
        for (SlicedDuel.Rates row : rows) {
            PairedRatio r = cpuRatio(row);
            md.append("| ").append(row.threads()).append(" | ").append(Numbers.micros(row.aFigures().cpuUsPerRecord()))
                    .append(" | ").append(Numbers.micros(row.bFigures().cpuUsPerRecord())).append(" | ")
                    .append(r == null ? "-" : PairedRatio.format(r.median())).append(" | ")
                    .append(r == null ? "-" : r.interval()).append(" |\n");
        }
        md.append('\n').append(CPU_NOTE).append('\n');
    }

    /**
     * The paired ratio of the slices' CPU per record, over the pairs where both were measured and
     * one read above 0 (a slice shorter than the clock's tick can read 0); null when no pair was.
     */
    static PairedRatio cpuRatio(SlicedDuel.Rates row) {
        double[] a = new double[row.aCpuUs().length];
        double[] b = new double[a.length];
        int n = 0;
        for (int p = 0; p < a.length; p++) {
            double ca = row.aCpuUs()[p];
            double cb = row.bCpuUs()[p];
            if (!Double.isNaN(ca) && !Double.isNaN(cb) && (ca > 0 || cb > 0)) {
                a[n] = ca;
                b[n++] = cb;
            }
        }
        return n == 0 ? null : PairedRatio.of(Arrays.copyOf(a, n), Arrays.copyOf(b, n));
    }

    /** Each column's latency and grouping over all its measured slices of a row. */
    private static void figures(StringBuilder md, PairOptions options, List<SlicedDuel.Rates> rows) {
        String a = options.a();
        String b = options.b();
        md.append("\n### Latency and records per flush, each column over all its measured slices\n\n");
        md.append("| threads | ").append(a).append(" p50 (us) | ").append(b).append(" p50 (us) | ").append(a)
                .append(" p99 (us) | ").append(b).append(" p99 (us) | ").append(a).append(" records per flush | ")
                .append(b).append(" records per flush |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|\n");
        for (SlicedDuel.Rates row : rows) {
            ColumnFigures fa = row.aFigures();
            ColumnFigures fb = row.bFigures();
            md.append("| ").append(row.threads()).append(" | ").append(Numbers.micros(fa.p50Us())).append(" | ")
                    .append(Numbers.micros(fb.p50Us())).append(" | ").append(Numbers.micros(fa.p99Us())).append(" | ")
                    .append(Numbers.micros(fb.p99Us())).append(" | ").append(perFlush(fa)).append(" | ")
                    .append(perFlush(fb)).append(" |\n");
        }
        md.append("\nLatency: from the call to the return of every append that started in the column's measured slices, "
                + "all pairs together. Records per flush: from the system's own counters, read at the start and end of "
                + "each measured slice (\"-\": it does not count its flushes). The slices interleave, so both columns "
                + "face the same disk; these totals carry no interval.\n");
    }

    private static String perFlush(ColumnFigures f) {
        double v = f.recordsPerFlush();
        return Double.isNaN(v) ? "-" : Numbers.fixed(v, 1);
    }

    /**
     * One CSV line per pair: threads, pair, each column's slice rate, their ratio, each slice's CPU
     * per record (an empty field when not measured). New columns go at the end.
     */
    static String csv(PairOptions options, List<SlicedDuel.Rates> rows) {
        List<String> lines = new ArrayList<>();
        lines.add("a,b,threads,pair,a_ops_per_s,b_ops_per_s,ratio,a_cpu_us_per_record,b_cpu_us_per_record");
        for (SlicedDuel.Rates row : rows) {
            for (int p = 0; p < row.a().length; p++) {
                lines.add(String.format(Locale.ROOT, "%s,%s,%d,%d,%.1f,%.1f,%.4f,%s,%s", options.a(), options.b(),
                        row.threads(), p + 1, row.a()[p], row.b()[p], row.a()[p] / row.b()[p],
                        Numbers.fixed(row.aCpuUs()[p], 3), Numbers.fixed(row.bCpuUs()[p], 3)));
            }
        }
        return String.join("\n", lines) + "\n";
    }

    static void writeCsv(Path csv, PairOptions options, List<SlicedDuel.Rates> rows) throws IOException {
        write(csv, csv(options, rows));
    }

    static void write(Path file, String text) throws IOException {
        Files.writeString(OutputFiles.prepare(file), text);
    }
}
