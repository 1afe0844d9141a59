package dev.commitlog.bench.codec;

import dev.commitlog.bench.stats.PairedRatio;
import dev.commitlog.AppendCallback;
import dev.commitlog.CommitLog;
import dev.commitlog.bench.pair.DuelTiming;
import dev.commitlog.bench.pair.SliceSchedule;
import dev.commitlog.bench.pair.SlicedDuel;
import dev.commitlog.bench.sut.CommitLogContender;
import dev.commitlog.bench.sweep.Directories;
import dev.commitlog.bench.sweep.RunHeader;
import dev.commitlog.codecs.example.WalRecord;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code codecs --pairs N}: each encoding against a reference (raw bytes by default), paired slice
 * by slice, both logs open at once, in every column of the single pass:
 * <ul>
 *   <li>durable appends from T threads: a {@link SlicedDuel} (the {@code pair} command's), the same
 *       writers appending to whichever log owns the slice;</li>
 *   <li>{@code appendAsync} from one thread: each slice submits for the slice length, then waits for
 *       its last completion; its rate is the records submitted over the time to that completion,
 *       so no slice leaves work in flight for the next;</li>
 *   <li>replay: each slice replays its log (the records the asynchronous slices appended, the
 *       shorter log topped up to as many) from the start, again until the slice length has passed;
 *       the reference's raw view against each encoding's decoding into objects.</li>
 * </ul>
 * The ratio of each column is {@link PairedRatio}'s median of pairs with its 95% interval.
 */
public final class CodecPairs {
    /** Unmeasured slices before the asynchronous and replay pairs, half on each log. */
    private static final int WARMUP_SLICES = 4;
    /** How long the waiting thread parks between looks at the completion count: short against a slice. */
    private static final long DRAIN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    private final CodecOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final WalRecord[] records = Encoding.samples();
    private final byte[][] raw = Encoding.rawSamples(records);

    public CodecPairs(CodecOptions options, PrintStream out, PrintStream err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** One column's pairs, in records/ms. */
    private record Row(Encoding encoding, String column, double[] a, double[] b) {
    }

    public void run() throws Exception {
        String started = RunHeader.machine();
        Path root = Files.createTempDirectory(Files.createDirectories(options.dir()), "codec-pairs-");
        DuelTiming timing = options.timing();
        List<Row> rows = new ArrayList<>();
        try {
            for (Encoding encoding : options.encodings()) {
                for (int threads : options.threads()) {
                    Path dir = Files.createDirectory(root.resolve(encoding.name() + "-" + threads + "t"));
                    System.gc(); // the previous column's garbage is not this column's pause
                    SlicedDuel.Rates rates = new SlicedDuel(new EncodingContender(encoding, records, raw),
                            new EncodingContender(options.against(), records, raw), threads, timing, new byte[][] {raw[0]}).run(dir);
                    Directories.deleteRecursively(dir);
                    progress(add(rows, new Row(encoding, columnName(threads), perMs(rates.a()), perMs(rates.b()))));
                }
                Path dir = Files.createDirectory(root.resolve(encoding.name() + "-async"));
                System.gc();
                try (Submitter a = new Submitter(dir.resolve("a"), encoding); Submitter b = new Submitter(dir.resolve("b"), options.against())) {
                    Submitter[] logs = new Submitter[2];
                    logs[SliceSchedule.A] = a;
                    logs[SliceSchedule.B] = b;
                    AlternatingDuel.Rates async = AlternatingDuel.run(timing.pairs(), WARMUP_SLICES,
                            system -> logs[system].submitFor(timing.slice()));
                    progress(add(rows, new Row(encoding, "appendAsync, 1 thread", async.a(), async.b())));
                    a.topUpTo(b.submitted);
                    b.topUpTo(a.submitted);
                    AlternatingDuel.Rates replay = AlternatingDuel.run(timing.pairs(), WARMUP_SLICES,
                            system -> logs[system].replayFor(timing.slice()));
                    progress(add(rows, new Row(encoding, "replay", replay.a(), replay.b())));
                }
                Directories.deleteRecursively(dir);
            }
        } finally {
            Directories.deleteRecursively(root);
        }
        out.print(markdown(started, rows));
        out.flush();
    }

    private static Row add(List<Row> rows, Row row) {
        rows.add(row);
        return row;
    }

    private static String columnName(int threads) {
        return threads + (threads == 1 ? " thread" : " threads") + ", durable";
    }

    private static double[] perMs(double[] perSecond) {
        double[] out = new double[perSecond.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = perSecond[i] / 1000;
        }
        return out;
    }

    private void progress(Row row) {
        PairedRatio r = PairedRatio.of(row.a(), row.b());
        err.printf(Locale.ROOT, "%-12s %-24s %,10.1f / %,10.1f records/ms  ratio %s [%s]  %s%n", row.encoding().name(), row.column(),
                PairedRatio.median(row.a()), PairedRatio.median(row.b()), PairedRatio.format(r.median()), r.interval(),
                r.against(options.floor()).words());
    }

    private String markdown(String started, List<Row> rows) {
        DuelTiming t = options.timing();
        String ref = options.against().name();
        String floor = PairedRatio.format(options.floor());
        StringBuilder md = new StringBuilder();
        md.append("## Encodings paired against ").append(ref).append("\n\n");
        md.append(started).append("  \n");
        md.append(String.format(Locale.ROOT, "%d pairs of slices per column, order ABBA BAAB, both logs open at once (Adaptive, "
                + "library defaults). Durable columns: %d ms settling + %d ms measured a slice, %.1f s warmup. appendAsync: "
                + "%d ms of submitting a slice, then until its last completion. Replay: whole-log replays for %d ms a slice.%n%n",
                t.pairs(), t.settle().toMillis(), t.slice().toMillis(), t.warmup().toMillis() / 1000.0, t.slice().toMillis(),
                t.slice().toMillis()));
        md.append("| encoding | column | encoding records/ms | ").append(ref).append(" records/ms | ratio (median of pairs) | 95% interval | pairs >= ")
                .append(floor).append(" | reading against ").append(floor).append(" |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---|\n");
        for (Row row : rows) {
            PairedRatio r = PairedRatio.of(row.a(), row.b());
            md.append(String.format(Locale.ROOT, "| %s | %s | %,.1f | %,.1f | %s | %s | %d of %d | %s |%n", row.encoding().name(),
                    row.column(), PairedRatio.median(row.a()), PairedRatio.median(row.b()), PairedRatio.format(r.median()),
                    r.interval(), r.reaching(options.floor()), r.pairs(), r.against(options.floor()).words()));
        }
        md.append("\nrecords/ms: the median slice of each. The ratio is the median over pairs of (encoding slice / ").append(ref)
                .append(" slice), the two slices adjacent in time; the interval is the sign test's. \"above\" and \"below\": the "
                        + "whole interval lies on that side of the floor; \"not resolved\": it straddles it.\n");
        return md.toString();
    }

    /** One log appended to asynchronously through one encoding from the harness thread, and replayed by it. */
    private final class Submitter implements AutoCloseable {
        private final CommitLog log;
        private final Encoding encoding;
        private final AtomicLong durable = new AtomicLong();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final AppendCallback callback;
        private long submitted;

        Submitter(Path directory, Encoding encoding) throws IOException {
            this.log = new CommitLogContender(SyncMode.ADAPTIVE, null).openLog(Files.createDirectories(directory));
            this.encoding = encoding;
            this.callback = AppendCallback.of(position -> durable.incrementAndGet(), (position, cause) -> failure.compareAndSet(null, cause));
        }

        /** Submits for {@code slice}, then waits for every completion; records/ms over the whole. */
        double submitFor(Duration slice) {
            long began = System.nanoTime();
            long stopAt = began + slice.toNanos();
            long n = 0;
            while (System.nanoTime() < stopAt) {
                encoding.appendAsync(log, records, raw, (int) (submitted++ & 1023), callback);
                n++;
            }
            drain();
            return n / ((System.nanoTime() - began) / 1e6);
        }

        private void drain() {
            while (durable.get() < submitted) { // parks rather than spins: the flushing threads need the cores
                Throwable failed = failure.get();
                if (failed != null) {
                    throw new IllegalStateException(encoding.name() + ": an asynchronous append failed", failed);
                }
                LockSupport.parkNanos(DRAIN_PARK_NANOS);
            }
        }

        /** Appends asynchronously until this log holds {@code count} records, and waits for them. */
        void topUpTo(long count) {
            while (submitted < count) {
                encoding.appendAsync(log, records, raw, (int) (submitted++ & 1023), callback);
            }
            drain();
        }

        /** Replays the whole log, again until {@code slice} has passed; records/ms. */
        double replayFor(Duration slice) {
            long began = System.nanoTime();
            long stopAt = began + slice.toNanos();
            long seen = 0;
            do {
                seen += encoding.replay(log);
            } while (System.nanoTime() < stopAt);
            return seen / ((System.nanoTime() - began) / 1e6);
        }

        @Override
        public void close() {
            log.close();
        }
    }
}
