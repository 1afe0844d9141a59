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
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Runs a whole sweep: the fdatasync probe, then every (threads, contender) cell in a fresh
 * directory, then the asynchronous section's (submitters, mode) cells, then the CSV, markdown and
 * chart. Rows are the outer loop so that the systems compared in one row are measured minutes,
 * not a whole sweep, apart on a noisy machine.
 */
public final class SweepRunner {
    private static final int PROBE_ITERATIONS = 200;

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
        List<Contender> contenders = new ArrayList<>(
                CommitLogModes.contenders(options.modes(), options.groupWindowsMs()));
        if (options.ablation()) {
            contenders.addAll(CommitLogModes.ablations());
        }
        options.peers().forEach(p -> contenders.add(PeerCatalog.create(p)));
        AsyncOptions async = options.async();
        List<CommitLogContender> asyncModes = async.enabled()
                ? CommitLogModes.contenders(async.modes(), options.groupWindowsMs()) : List.of();
        int total = options.threads().size() * contenders.size() + async.submitters().size() * asyncModes.size();

        boolean ownDir = options.dir() == null;
        Path workDir = ownDir
                ? Files.createTempDirectory(Files.createDirectories(SweepOptions.DEFAULT_OUTPUT), "tmp-")
                : Files.createDirectories(options.dir());
        try {
            List<String> header = new ArrayList<>(describeRun(workDir, contenders.size(), total));
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

            CellCounter counter = new CellCounter(total);
            List<CellResult> cells = runCells(contenders, workDir, counter);
            List<CellResult> asyncCells = runAsyncCells(asyncModes, workDir, counter);
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

    /** Numbers the cells across both sections, for directory names and progress lines. */
    private static final class CellCounter {
        final int total;
        int n;

        CellCounter(int total) {
            this.total = total;
        }
    }

    /** One cell's run, given its fresh directory. */
    private interface CellRun {
        CellResult run(Path directory) throws IOException, InterruptedException;
    }

    private List<CellResult> runCells(List<Contender> contenders, Path workDir, CellCounter counter)
            throws IOException, InterruptedException {
        byte[] record = record();
        List<CellResult> cells = new ArrayList<>();
        for (int threads : options.threads()) {
            for (Contender contender : contenders) {
                int t = threads;
                cells.add(runCell(workDir, counter, contender.label() + "-" + threads + "t", "threads",
                        dir -> new Cell(contender, t, options.timing(), record).run(dir)));
            }
        }
        return cells;
    }

    private List<CellResult> runAsyncCells(List<CommitLogContender> modes, Path workDir, CellCounter counter)
            throws IOException, InterruptedException {
        byte[] record = record();
        List<CellResult> cells = new ArrayList<>();
        for (int submitters : options.async().submitters()) {
            for (CommitLogContender mode : modes) {
                AsyncCell cell = new AsyncCell(mode, submitters, options.async().inFlight(), options.timing(), record);
                cells.add(runCell(workDir, counter, cell.label() + "-" + submitters + "s", "submitters", cell::run));
            }
        }
        return cells;
    }

    /** Runs one cell in a fresh directory; {@code unit} names what the result's threads count, for the progress line. */
    private CellResult runCell(Path workDir, CellCounter counter, String name, String unit, CellRun cell)
            throws IOException, InterruptedException {
        counter.n++;
        Path cellDir = Files.createDirectory(workDir.resolve(String.format(Locale.ROOT, "%03d-%s", counter.n, name)));
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
        err.println(progress(counter.n, counter.total, result, unit, (System.nanoTime() - began) / 1e9));
        return result;
    }

    private byte[] record() {
        byte[] record = new byte[options.recordBytes()];
        new Random(13530).nextBytes(record);   // incompressible, the same in every run and section
        return record;
    }

    private void writeOutputs(SweepResults results) throws IOException {
        CsvWriter.write(options.csv(), results.allCells());
        MarkdownReport.write(options.markdown(), results);
        if (results.cells().isEmpty()) {   // the chart plots the closed-loop cells only
            err.println("wrote " + options.csv() + ", " + options.markdown() + " (no chart: no closed-loop cells)");
        } else {
            SweepChart.write(options.chart(), results);
            err.println("wrote " + options.csv() + ", " + options.markdown() + ", " + options.chart());
        }
        out.print(MarkdownReport.render(results));
        out.flush();
    }

    private List<String> describeRun(Path workDir, int columns, int total) throws IOException {
        int closedLoop = options.threads().size() * columns;
        String when = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown host";
        }
        return List.of(
                String.format(Locale.ROOT, "Run %s on %s: %d cores, %s %s, JDK %s (%s)", when, host,
                        Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
                        System.getProperty("os.arch"), System.getProperty("java.version"),
                        System.getProperty("java.vm.name")),
                String.format(Locale.ROOT,
                        "%d cells (%d closed-loop: %d thread counts x %d columns; %d asynchronous), each %.1f s warmup "
                                + "+ %.1f s measured, %d-byte records, fresh directory per cell under %s (%s)",
                        total, closedLoop, closedLoop == 0 ? 0 : options.threads().size(), columns, total - closedLoop,
                        options.timing().warmup().toMillis() / 1000.0,
                        options.timing().measure().toMillis() / 1000.0, options.recordBytes(),
                        workDir.toAbsolutePath(), Files.getFileStore(workDir).type()));
    }

    private static String progress(int n, int total, CellResult r, String unit, double cellSeconds) {
        String flushes = Double.isNaN(r.flushesPerSec()) ? ""
                : String.format(Locale.ROOT, "  %,.0f flushes/s  %s rec/flush", r.flushesPerSec(),
                        Double.isNaN(r.recordsPerFlush()) ? "-" : String.format(Locale.ROOT, "%.1f", r.recordsPerFlush()));
        return String.format(Locale.ROOT, "[%2d/%d] %4d %-10s  %-17s %,12.0f ops/s  p50 %,10.2f us  p99 %,10.2f us%s  (cell %.1f s)",
                n, total, r.threads(), unit, r.label(), r.opsPerSec(), r.p50Us(), r.p99Us(), flushes, cellSeconds);
    }
}
