package dev.commitlog.bench.sweep;

import dev.commitlog.bench.device.DeviceWrites;
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

/**
 * Runs a whole sweep, one descriptive pass: the fdatasync probe, then every (threads, contender)
 * cell once, each in a fresh directory, then the asynchronous section's (submitters, mode) cells,
 * then the CSV, markdown and chart. Rows are the outer loop so that the systems compared in one
 * row are measured one after another, not a whole sweep apart, on a noisy machine.
 */
public final class SweepRunner {
    private static final int PROBE_ITERATIONS = 200;
    /** How long the device's other writers are watched before and after the cells, with this run idle. */
    private static final long DEVICE_IDLE_MILLIS = 1000;

    private final SweepOptions options;
    private final PrintStream out;
    private final PrintStream err;
    /** Cells of both sections, for progress lines and directory names. */
    private int total;
    private int cellsRun;
    /** The counter of the device under the work directory; every durable cell reads it. */
    private DeviceWrites device = DeviceWrites.NONE;

    public SweepRunner(SweepOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Runs the sweep and returns what it measured (also written to the output files). */
    public SweepResults run() throws IOException, InterruptedException {
        List<CommitLogContender> ours = new ArrayList<>(CommitLogModes.contenders(options.modes(), options.groupWindowsMs()));
        ours.addAll(CommitLogModes.ablations(options.ablations()));
        List<Contender> contenders = new ArrayList<>(ours.stream().map(this::asConfigured).toList());
        options.peers().forEach(p -> contenders.add(PeerCatalog.create(p)));
        AsyncOptions async = options.async();
        List<CommitLogContender> asyncModes = async.enabled()
                ? CommitLogModes.contenders(async.modes(), options.groupWindowsMs()).stream().map(this::asConfigured).toList() : List.of();
        total = options.threads().size() * contenders.size() + async.submitters().size() * asyncModes.size();
        cellsRun = 0;

        boolean ownDir = options.dir() == null;
        Path workDir = Directories.workDir(options.dir(), SweepOptions.DEFAULT_OUTPUT);
        try {
            List<String> header = new ArrayList<>(RunHeader.describe(options, workDir, contenders.size(), total));
            device = DeviceWrites.of(workDir);
            header.add(device.backgroundLine("before the cells", DEVICE_IDLE_MILLIS));
            FsyncProbe.Result probe = FsyncProbe.run(workDir, PROBE_ITERATIONS, options.recordBytes());
            err.println(probe.describe());
            header.add(probe.describe());
            contenders.stream().map(Contender::settings).filter(s -> !s.isEmpty()).distinct()
                    .forEach(header::add);
            header.add(options.sections().describe());
            if (!asyncModes.isEmpty()) {
                header.add(String.format(Locale.ROOT, "asynchronous: appendAsync(byte[], int, int, AppendCallback), "
                        + "one callback object per submitting thread, up to %d appends in flight per thread; "
                        + "rate = completions in the window, latency = submit to callback", async.inFlight()));
            }

            List<CellResult> cells = runCells(contenders, workDir);
            List<CellResult> asyncCells = runAsyncCells(asyncModes, workDir);
            header.add(device.backgroundLine("after the cells", DEVICE_IDLE_MILLIS));
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

    /** {@code contender} as the options run it: on a simulated slow device, discarding. */
    private CommitLogContender asConfigured(CommitLogContender contender) {
        CommitLogContender sectioned = options.sections().sectioned()
                ? contender.withSections(options.sections().compression(), options.sections().encryption()) : contender;
        CommitLogContender slowed = options.deviceLatencyMicros() == 0 ? sectioned
                : sectioned.withDeviceLatency(options.deviceLatencyMicros());
        return options.discard() ? slowed.discarding() : slowed;
    }

    /** One cell's run, given its fresh directory. */
    private interface CellRun {
        CellResult run(Path directory) throws IOException, InterruptedException;
    }

    private List<CellResult> runCells(List<Contender> contenders, Path workDir) throws IOException, InterruptedException {
        byte[][] records = options.sections().records(options.recordBytes());
        List<CellResult> cells = new ArrayList<>();
        for (int threads : options.threads()) {
            for (Contender contender : contenders) {
                cells.add(runCell(workDir, contender.label() + "-" + threads + "t", "threads",
                        dir -> new Cell(contender, threads, options.timing(), records, device).run(dir)));
            }
        }
        return cells;
    }

    private List<CellResult> runAsyncCells(List<CommitLogContender> modes, Path workDir)
            throws IOException, InterruptedException {
        byte[][] records = options.sections().records(options.recordBytes());
        List<CellResult> cells = new ArrayList<>();
        for (int submitters : options.async().submitters()) {
            for (CommitLogContender mode : modes) {
                cells.add(runCell(workDir, AsyncCell.label(mode) + "-" + submitters + "s", "submitters",
                        dir -> new AsyncCell(mode, submitters, options.async().inFlight(), options.timing(), records, device)
                                .run(dir)));
            }
        }
        return cells;
    }

    /**
     * Runs the next cell in a fresh directory named {@code NNN-name}; {@code unit} names what the
     * result's threads count, for the progress line.
     */
    private CellResult runCell(Path workDir, String name, String unit, CellRun cell) throws IOException, InterruptedException {
        int n = ++cellsRun;
        Path cellDir = Files.createDirectory(workDir.resolve(String.format(Locale.ROOT, "%03d-%s", n, name)));
        System.gc();   // the previous cell's garbage is not this cell's pause
        CellResult result;
        long began = System.nanoTime();
        try {
            result = cell.run(cellDir);
        } finally {
            if (!options.keep()) {
                Directories.deleteRecursively(cellDir);
            }
        }
        err.println(progress(n, total, result, unit, (System.nanoTime() - began) / 1e9));
        return result;
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

    private static String progress(int n, int total, CellResult r, String unit, double cellSeconds) {
        String flushes = Double.isNaN(r.flushesPerSec()) ? ""
                : String.format(Locale.ROOT, "  %,.0f flushes/s  %s rec/flush", r.flushesPerSec(),
                        Double.isNaN(r.recordsPerFlush()) ? "-" : String.format(Locale.ROOT, "%.1f", r.recordsPerFlush()));
        String device = Double.isNaN(r.devicePerByte()) ? ""
                : String.format(Locale.ROOT, "  device %.2f B/B", r.devicePerByte());
        String cpu = Double.isNaN(r.cpuUsPerRecord()) ? ""
                : String.format(Locale.ROOT, "  cpu %.2f us/record", r.cpuUsPerRecord());
        return String.format(Locale.ROOT, "[%2d/%d] %4d %-10s  %-17s %,12.0f ops/s  p50 %,10.2f us  p99 %,10.2f us%s%s%s  (cell %.1f s)",
                n, total, r.threads(), unit, r.label(), r.opsPerSec(), r.p50Us(), r.p99Us(), flushes, device, cpu, cellSeconds);
    }
}
