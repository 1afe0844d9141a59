package dev.commitlog.bench.sweep;

import dev.commitlog.bench.peer.PeerCatalog;
import dev.commitlog.bench.report.Column;
import dev.commitlog.bench.report.CsvWriter;
import dev.commitlog.bench.report.MarkdownReport;
import dev.commitlog.bench.report.SweepChart;
import dev.commitlog.bench.report.SweepResults;
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
 * directory, then the CSV, markdown and chart. Rows are the outer loop so that the systems
 * compared in one row are measured minutes, not a whole sweep, apart on a noisy machine.
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
        options.peers().forEach(p -> contenders.add(PeerCatalog.create(p)));

        boolean ownDir = options.dir() == null;
        Path workDir = ownDir
                ? Files.createTempDirectory(Files.createDirectories(SweepOptions.DEFAULT_OUTPUT), "tmp-")
                : Files.createDirectories(options.dir());
        try {
            List<String> header = new ArrayList<>(describeRun(workDir, contenders.size()));
            FsyncProbe.Result probe = FsyncProbe.run(workDir, PROBE_ITERATIONS, options.recordBytes());
            err.println(probe.describe());
            header.add(probe.describe());
            contenders.stream().map(Contender::settings).filter(s -> !s.isEmpty()).distinct()
                    .forEach(header::add);

            List<CellResult> cells = runCells(contenders, workDir);
            SweepResults results = new SweepResults(header, options.threads(),
                    contenders.stream().map(Column::of).toList(), cells);
            writeOutputs(results);
            return results;
        } finally {
            if (ownDir && !options.keep()) {
                Directories.deleteRecursively(workDir);
            }
        }
    }

    private List<CellResult> runCells(List<Contender> contenders, Path workDir)
            throws IOException, InterruptedException {
        byte[] record = new byte[options.recordBytes()];
        new Random(13530).nextBytes(record);   // incompressible, the same in every run
        int total = options.threads().size() * contenders.size();
        List<CellResult> cells = new ArrayList<>(total);
        int n = 0;
        for (int threads : options.threads()) {
            for (Contender contender : contenders) {
                n++;
                Path cellDir = Files.createDirectory(workDir.resolve(
                        String.format(Locale.ROOT, "%03d-%s-%dt", n, contender.label(), threads)));
                System.gc();   // the previous cell's garbage is not this cell's pause
                CellResult result;
                long began = System.nanoTime();
                try {
                    result = new Cell(contender, threads, options.timing(), record).run(cellDir);
                } finally {
                    if (!options.keep()) {
                        Directories.deleteRecursively(cellDir);
                    }
                }
                cells.add(result);
                err.println(progress(n, total, result, (System.nanoTime() - began) / 1e9));
            }
        }
        return cells;
    }

    private void writeOutputs(SweepResults results) throws IOException {
        CsvWriter.write(options.csv(), results.cells());
        MarkdownReport.write(options.markdown(), results);
        SweepChart.write(options.chart(), results);
        err.println("wrote " + options.csv() + ", " + options.markdown() + ", " + options.chart());
        out.print(MarkdownReport.render(results));
        out.flush();
    }

    private List<String> describeRun(Path workDir, int columns) throws IOException {
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
                        "%d cells (%d thread counts x %d columns), each %.1f s warmup + %.1f s measured, "
                                + "%d-byte records, closed loop, fresh directory per cell under %s (%s)",
                        options.threads().size() * columns, options.threads().size(), columns,
                        options.timing().warmup().toMillis() / 1000.0,
                        options.timing().measure().toMillis() / 1000.0, options.recordBytes(),
                        workDir.toAbsolutePath(), Files.getFileStore(workDir).type()));
    }

    private static String progress(int n, int total, CellResult r, double cellSeconds) {
        String flushes = Double.isNaN(r.flushesPerSec()) ? ""
                : String.format(Locale.ROOT, "  %,.0f flushes/s  %s rec/flush", r.flushesPerSec(),
                        Double.isNaN(r.recordsPerFlush()) ? "-" : String.format(Locale.ROOT, "%.1f", r.recordsPerFlush()));
        return String.format(Locale.ROOT, "[%2d/%d] %4d threads  %-16s %,12.0f ops/s  p50 %,10.2f us  p99 %,10.2f us%s  (cell %.1f s)",
                n, total, r.threads(), r.label(), r.opsPerSec(), r.p50Us(), r.p99Us(), flushes, cellSeconds);
    }
}
