package dev.commitlog.bench.pair;

import dev.commitlog.bench.stats.PairedRatio;
import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sweep.Directories;
import dev.commitlog.bench.sweep.FsyncProbe;
import dev.commitlog.bench.sweep.LogSections;
import dev.commitlog.bench.sweep.RunHeader;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** Runs the {@code pair} command: the fdatasync probe, then one sliced duel per thread count, then the report. */
public final class PairRunner {
    private static final int PROBE_ITERATIONS = 200;

    private final PairOptions options;
    private final PrintStream out;
    private final PrintStream err;

    public PairRunner(PairOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    public void run() throws IOException, InterruptedException {
        Contender a = ContenderLabels.create(options.a(), options.baseline());
        Contender b = ContenderLabels.create(options.b(), options.baseline());
        boolean ownDir = options.dir() == null;
        Path workDir = Directories.workDir(options.dir(), PairOptions.DEFAULT_OUTPUT);
        LogSections payload = new LogSections(Compression.NONE, Encryption.NONE, options.json());
        byte[][] records = payload.records(options.recordBytes());
        try {
            DuelTiming t = options.timing();
            List<String> header = new ArrayList<>();
            header.add(RunHeader.machine());
            header.add(String.format(Locale.ROOT, "%d pairs of slices per row, each slice %d ms settling + %d ms measured, "
                            + "order ABBA BAAB; %.1f s warmup per row (half on each); %d-byte records; both columns open "
                            + "at once in fresh directories under %s (%s), the same writer threads appending to whichever owns the slice",
                    t.pairs(), t.settle().toMillis(), t.slice().toMillis(), t.warmup().toMillis() / 1000.0,
                    options.recordBytes(), workDir.toAbsolutePath(), Files.getFileStore(workDir).type()));
            header.add(String.format(Locale.ROOT, "records: %s, %d distinct, each writer appending them in turn from its own",
                    payload.describeRecords(), records.length));
            FsyncProbe.Result probe = FsyncProbe.run(workDir, PROBE_ITERATIONS, options.recordBytes());
            err.println(probe.describe());
            header.add(probe.describe());
            Stream.of(a, b).map(Contender::settings).filter(s -> !s.isEmpty()).distinct().forEach(header::add);
            if (a.durable() != b.durable()) {
                Contender lazy = a.durable() ? b : a;
                Contender flushing = a.durable() ? a : b;
                header.add("note: " + lazy.label() + " acknowledges before its data is on disk and leaves dirty pages behind; "
                        + flushing.label() + "'s next fdatasync may have to write them too (ext4 commits them with its journal), "
                        + "so its slices after " + lazy.label() + "'s pay for both. Pairs of two flushing columns compare flush paths alone");
            }

            List<SlicedDuel.Rates> rows = new ArrayList<>();
            for (int threads : options.threads()) {
                Path rowDir = Files.createDirectory(workDir.resolve(String.format(Locale.ROOT, "%s-vs-%s-%dt",
                        options.a(), options.b(), threads)));
                System.gc();   // the previous row's garbage is not this row's pause
                try {
                    SlicedDuel.Rates row = new SlicedDuel(a, b, threads, t, records).run(rowDir);
                    rows.add(row);
                    PairedRatio r = PairedRatio.of(row.a(), row.b());
                    err.println(String.format(Locale.ROOT, "%4d threads  %s %,.0f  %s %,.0f ops/s  ratio %.3f [%s]  %s;  "
                                    + "p99 %,.0f / %,.0f us, records per flush %.1f / %.1f, cpu %.2f / %.2f us/record",
                            threads, options.a(), PairedRatio.median(row.a()), options.b(), PairedRatio.median(row.b()),
                            r.median(), r.interval(), r.against(options.floor()).words(),
                            row.aFigures().p99Us(), row.bFigures().p99Us(), row.aFigures().recordsPerFlush(),
                            row.bFigures().recordsPerFlush(), row.aFigures().cpuUsPerRecord(), row.bFigures().cpuUsPerRecord()));
                } finally {
                    Directories.deleteRecursively(rowDir);
                }
            }
            String report = PairReport.markdown(options, header, rows);
            PairReport.write(options.markdown(), report);
            PairReport.writeCsv(options.csv(), options, rows);
            err.println("wrote " + options.csv() + ", " + options.markdown());
            out.print(report);
            out.flush();
        } finally {
            if (ownDir) {
                Directories.deleteRecursively(workDir);
            }
        }
    }
}
