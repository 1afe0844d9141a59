package dev.commitlog.bench.report;

import dev.commitlog.bench.sweep.CellResult;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/**
 * Two charts side by side in one PNG: throughput vs threads and p99 latency vs threads, one line
 * per column. Threads are on a log2 axis (plotted as log2(threads), labelled as thread counts);
 * both y axes are logarithmic because the peers span four orders of magnitude. Drawn headless.
 */
public final class SweepChart {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 600;

    private SweepChart() {
    }

    /**
     * One colour per column, in column order: distinct hues first (the default theme's later
     * colours are pale greys and pinks that vanish on a white plot).
     */
    private static final Color[] PALETTE = {
            new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
            new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf),
            new Color(0x000000), new Color(0x393b79), new Color(0x637939), new Color(0x843c39), new Color(0x7b4173)};

    public static void write(Path file, SweepResults r) throws IOException {
        System.setProperty("java.awt.headless", "true");   // no display on a benchmark host
        XYChart throughput = chart(r, "Throughput", "appends/s", CellResult::opsPerSec);
        XYChart latency = chart(r, "p99 append latency", "microseconds", CellResult::p99Us);
        // One legend for both charts (the same columns and colours), listed down the right side:
        // two legends along the bottom ran into each other and cut the last entries off.
        throughput.getStyler().setLegendVisible(false);
        latency.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE).setLegendLayout(Styler.LegendLayout.Vertical);
        List<XYChart> charts = List.of(throughput, latency);
        BitmapEncoder.saveBitmap(charts, 1, 2, OutputFiles.prepare(file).toString(),
                BitmapEncoder.BitmapFormat.PNG);
    }

    private static XYChart chart(SweepResults r, String title, String yTitle,
                                 ToDoubleFunction<CellResult> metric) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title(title).xAxisTitle("writer threads (log2)").yAxisTitle(yTitle).build();
        chart.getStyler()
                .setYAxisLogarithmic(true)
                .setxAxisTickLabelsFormattingFunction(SweepChart::threadLabel)
                .setYAxisDecimalPattern("#,##0.##");
        List<Column> columns = r.columns();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int t : r.threads()) {
                r.cell(c.label(), t).ifPresent(cell -> {
                    double v = metric.applyAsDouble(cell);
                    if (v > 0 && Double.isFinite(v)) {   // a log axis cannot show 0 or "not measured"
                        x.add(log2(t));
                        y.add(v);
                    }
                });
            }
            if (!x.isEmpty()) {
                Color color = PALETTE[i % PALETTE.length]; // by column, so a column keeps its colour in both charts
                XYSeries series = chart.addSeries(c.label(), x, y);
                series.setLineColor(color);
                series.setMarkerColor(color);
            }
        }
        return chart;
    }

    private static double log2(int threads) {
        return Math.log(threads) / Math.log(2);
    }

    /** Labels whole powers of two with the thread count; other tick positions stay blank. */
    private static String threadLabel(Double log2) {
        double rounded = Math.rint(log2);
        return Math.abs(log2 - rounded) < 1e-9 ? String.valueOf(Math.round(Math.pow(2, rounded))) : "";
    }
}
