package dev.commitlog.bench.pair;

import dev.commitlog.bench.stats.PairedRatio;
import dev.commitlog.bench.report.Numbers;
import dev.commitlog.bench.report.OutputFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The {@code pair} command's markdown report and its CSV of every pair. */
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
        return md.toString();
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

    /** One CSV line per pair: threads, pair, each column's slice rate, their ratio. */
    static void writeCsv(Path csv, PairOptions options, List<SlicedDuel.Rates> rows) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("a,b,threads,pair,a_ops_per_s,b_ops_per_s,ratio");
        for (SlicedDuel.Rates row : rows) {
            for (int p = 0; p < row.a().length; p++) {
                lines.add(String.format(Locale.ROOT, "%s,%s,%d,%d,%.1f,%.1f,%.4f", options.a(), options.b(),
                        row.threads(), p + 1, row.a()[p], row.b()[p], row.a()[p] / row.b()[p]));
            }
        }
        write(csv, String.join("\n", lines) + "\n");
    }

    static void write(Path file, String text) throws IOException {
        Files.writeString(OutputFiles.prepare(file), text);
    }
}
