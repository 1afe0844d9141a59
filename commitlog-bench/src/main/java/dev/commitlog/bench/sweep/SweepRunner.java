package dev.commitlog.bench.sweep;

import dev.commitlog.bench.peer.PeerCatalog;
import dev.commitlog.bench.report.Column;
import dev.commitlog.bench.report.CsvWriter;
import dev.commitlog.bench.report.MarkdownReport;
import dev.commitlog.bench.report.SweepChart;
import dev.commitlog.bench.report.SweepResults;
import dev.commitlog.bench.sut.CommitLogContender;
import dev.commitlog.bench.sut.CommitLogModes;
import dev.commitlog.bench.sut.Contender;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Runs a whole sweep: the fdatasync probe, then every (threads, contender) cell in a fresh
 * directory, then the asynchronous section's (submitters, mode) cells, then the CSV, markdown and
 * chart. Rows are the outer loop so that the systems compared in one row are measured minutes,
 * not a whole sweep, apart on a noisy machine; with {@code --rounds N} each row runs its cells N
 * times, interleaved ({@link InterleavedRounds}), and reports each cell's median round.
 */
public final class SweepRunner {
    private static final int PROBE_ITERATIONS = 200;
    /** The device gate's probe around each round: short, about 15 ms on this disk at its usual pace. */
    private static final int ROUND_PROBE_ITERATIONS = 50;

    private final SweepOptions options;
    private final PrintStream out;
    private final PrintStream err;

    public SweepRunner(SweepOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Runs the sweep and returns what it measured (also written to the output files). */
    public SweepResults run() throws IOException, InterruptedException {
        List<CommitLogContender> ours = new ArrayList<>(CommitLogModes.contenders(options.modes(), options.groupWindowsMs()));
        ours.addAll(CommitLogModes.ablations(options.ablations()));
        List<Contender> contenders = new ArrayList<>(ours.stream().map(this::onDevice).toList());
        options.peers().forEach(p -> contenders.add(PeerCatalog.create(p)));
        AsyncOptions async = options.async();
        List<CommitLogContender> asyncModes = async.enabled()
                ? CommitLogModes.contenders(async.modes(), options.groupWindowsMs()).stream().map(this::onDevice).toList() : List.of();
        int total = options.threads().size() * contenders.size() + async.submitters().size() * asyncModes.size();

        boolean ownDir = options.dir() == null;
        Path workDir = Directories.workDir(options.dir(), SweepOptions.DEFAULT_OUTPUT);
        try {
            List<String> header = new ArrayList<>(RunHeader.describe(options, workDir, contenders.size(), total));
            FsyncProbe.Result probe = FsyncProbe.run(workDir, PROBE_ITERATIONS, options.recordBytes());
            err.println(probe.describe());
            header.add(probe.describe());
            contenders.stream().map(Contender::settings).filter(s -> !s.isEmpty()).distinct()
                    .forEach(header::add);
            if (!asyncModes.isEmpty()) {
                header.add(String.format(Locale.ROOT, "asynchronous: appendAsync(byte[], int, int, AppendCallback), "
                        + "one callback object per submitting thread, up to %d appends in flight per thread; "
                        + "rate = completions in the window, latency = submit to callback", async.inFlight()));
            }

            DeviceGate gate = options.deviceGate() > 0
                    ? new DeviceGate(options.deviceGate(), probe.medianUs(),
                            () -> FsyncProbe.run(workDir, ROUND_PROBE_ITERATIONS, options.recordBytes()).medianUs())
                    : DeviceGate.off();
            CellCounter counter = new CellCounter(total, gate);
            List<CellResult> cells = runCells(contenders, workDir, counter);
            List<CellResult> asyncCells = runAsyncCells(asyncModes, workDir, counter);
            header.addAll(counter.gateNotes);
            SweepResults results = new SweepResults(header, options.threads(),
                    contenders.stream().map(Column::of).toList(), cells, async.inFlight(), asyncCells);
            writeOutputs(results);
            return results;
        } finally {
            if (ownDir && !options.keep()) {
                Directories.deleteRecursively(workDir);
            }
        }
    }

    private CommitLogContender onDevice(CommitLogContender contender) {
        return options.deviceLatencyMicros() == 0 ? contender : contender.withDeviceLatency(options.deviceLatencyMicros());
    }

    /**
     * Numbers the cells across both sections for progress lines (cell n of total, whatever the
     * round), and every cell round for directory names; carries the device gate and its notes on
     * the rows finished so far.
     */
    private static final class CellCounter {
        final int total;
        final DeviceGate gate;
        final List<String> gateNotes = new ArrayList<>();
        /** Cells of the rows already finished: a row's cells are numbered from here + 1. */
        int cellsBefore;
        int cellRuns;

        CellCounter(int total, DeviceGate gate) {
            this.total = total;
            this.gate = gate;
        }
    }

    /** One cell's run, given its fresh directory. */
    private interface CellRun {
        CellResult run(Path directory) throws IOException, InterruptedException;
    }

    /** One cell of a row: its directory name and how to run one round of it. */
    private record RowCell(String name, CellRun run) {
    }

    private List<CellResult> runCells(List<Contender> contenders, Path workDir, CellCounter counter)
            throws IOException, InterruptedException {
        byte[] record = record(options.recordBytes());
        return runSection(options.threads(), contenders, "threads", workDir, counter,
                (contender, threads) -> new RowCell(contender.label() + "-" + threads + "t",
                        // a fresh Cell per round: its phase only moves forward
                        dir -> new Cell(contender, threads, options.timing(), record).run(dir)));
    }

    private List<CellResult> runAsyncCells(List<CommitLogContender> modes, Path workDir, CellCounter counter)
            throws IOException, InterruptedException {
        byte[] record = record(options.recordBytes());
        return runSection(options.async().submitters(), modes, "submitters", workDir, counter,
                (mode, submitters) -> new RowCell(AsyncCell.label(mode) + "-" + submitters + "s",
                        // a fresh AsyncCell per round: its phase only moves forward
                        dir -> new AsyncCell(mode, submitters, options.async().inFlight(), options.timing(), record).run(dir)));
    }

    /** The cell of {@code column} in the row of {@code count} (threads or submitters). */
    private interface SectionCell<C> {
        RowCell of(C column, int count);
    }

    /**
     * Runs one section of the sweep, a row per count, a cell per column in each row, the rows one
     * after another; returns each cell's median round, row by row, in column order. {@code unit}
     * names what the counts count, for the progress lines.
     */
    private <C> List<CellResult> runSection(List<Integer> counts, List<C> columns, String unit, Path workDir,
                                            CellCounter counter, SectionCell<C> cell) throws IOException, InterruptedException {
        List<CellResult> cells = new ArrayList<>();
        for (int count : counts) {
            List<RowCell> row = new ArrayList<>();
            for (C column : columns) {
                row.add(cell.of(column, count));
            }
            cells.addAll(runRow(workDir, counter, count, unit, row));
        }
        return cells;
    }

    /**
     * Runs every round of one row's cells, interleaved; returns each cell's median round (of the
     * rounds the device gate keeps), in column order. {@code unit} names what {@code count} counts.
     */
    private List<CellResult> runRow(Path workDir, CellCounter counter, int count, String unit, List<RowCell> row)
            throws IOException, InterruptedException {
        int first = counter.cellsBefore + 1;
        InterleavedRounds.Row results = InterleavedRounds.run(row.size(), options.rounds(),
                (k, round) -> runCell(workDir, counter, first + k, round, unit, row.get(k)), counter.gate, count + " " + unit);
        counter.cellsBefore += row.size();
        if (!results.gateNote().isEmpty()) {
            err.println(results.gateNote());
            counter.gateNotes.add(results.gateNote());
        }
        return results.cells();
    }

    /**
     * Runs one round of cell {@code n} in a fresh directory; {@code unit} names what the result's
     * threads count, for the progress line.
     */
    private CellResult runCell(Path workDir, CellCounter counter, int n, int round, String unit, RowCell cell)
            throws IOException, InterruptedException {
        counter.cellRuns++;
        String name = options.rounds() == 1 ? cell.name() : cell.name() + "-r" + round;
        Path cellDir = Files.createDirectory(workDir.resolve(String.format(Locale.ROOT, "%03d-%s", counter.cellRuns, name)));
        System.gc();   // the previous cell's garbage is not this cell's pause
        CellResult result;
        long began = System.nanoTime();
        try {
            result = cell.run().run(cellDir);
        } finally {
            if (!options.keep()) {
                Directories.deleteRecursively(cellDir);
            }
        }
        err.println(progress(n, counter.total, round, options.rounds(), result, unit, (System.nanoTime() - began) / 1e9));
        return result;
    }

    /** The record every cell appends: incompressible, the same in every run, section and command. */
    public static byte[] record(int bytes) {
        byte[] record = new byte[bytes];
        new Random(13530).nextBytes(record);
        return record;
    }

    private void writeOutputs(SweepResults results) throws IOException {
        CsvWriter.write(options.csv(), results.allCells());
        String report = MarkdownReport.write(options.markdown(), results);
        if (results.cells().isEmpty()) {   // the chart plots the closed-loop cells only
            err.println("wrote " + options.csv() + ", " + options.markdown() + " (no chart: no closed-loop cells)");
        } else {
            SweepChart.write(options.chart(), results);
            err.println("wrote " + options.csv() + ", " + options.markdown() + ", " + options.chart());
        }
        out.print(report);
        out.flush();
    }

    private static String progress(int n, int total, int round, int rounds, CellResult r, String unit,
                                   double cellSeconds) {
        String cell = rounds == 1 ? String.format(Locale.ROOT, "[%2d/%d]", n, total)
                : String.format(Locale.ROOT, "[%2d/%d r%d/%d]", n, total, round, rounds);
        String flushes = Double.isNaN(r.flushesPerSec()) ? ""
                : String.format(Locale.ROOT, "  %,.0f flushes/s  %s rec/flush", r.flushesPerSec(),
                        Double.isNaN(r.recordsPerFlush()) ? "-" : String.format(Locale.ROOT, "%.1f", r.recordsPerFlush()));
        return String.format(Locale.ROOT, "%s %4d %-10s  %-17s %,12.0f ops/s  p50 %,10.2f us  p99 %,10.2f us%s  (cell %.1f s)",
                cell, r.threads(), unit, r.label(), r.opsPerSec(), r.p50Us(), r.p99Us(), flushes, cellSeconds);
    }
}
