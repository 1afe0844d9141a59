package dev.commitlog.bench.codec;

import dev.commitlog.AppendCallback;
import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.codecs.example.WalRecord;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * {@code codecs} without {@code --pairs}: the cost of encoding on the durable append path, one log
 * per encoding (Adaptive sync, real disk): records/ms appended from 1, 8 and 64 threads in a closed
 * loop, through {@code appendAsync} from one thread, replayed from the page cache, and the bytes each
 * record takes in the payload and on the log. One cell per encoding and column, the encodings in
 * turn within each column; single cells on a shared machine move by tens of percent, so a close
 * ratio is judged with {@code --pairs} ({@link CodecPairs}), not from this table.
 */
public final class CodecBench {
    private final int seconds;
    private final List<Integer> threads;
    private final List<Encoding> encodings;
    private final Path base;
    private final PrintStream out;
    private final PrintStream err;
    private final WalRecord[] records = Encoding.samples();
    private final byte[][] raw = Encoding.rawSamples(records);

    public CodecBench(CodecOptions options, PrintStream out, PrintStream err) {
        this.seconds = options.seconds();
        this.threads = options.threads();
        this.encodings = options.encodings();
        this.base = options.dir();
        this.out = out;
        this.err = err;
    }

    public void run() throws Exception {
        Path root = Files.createTempDirectory(Files.createDirectories(base), "codecs-");
        Map<Encoding, CommitLog> logs = new LinkedHashMap<>();
        Map<Encoding, long[]> counts = new LinkedHashMap<>(); // first position, records appended
        Map<String, Double> figures = new LinkedHashMap<>();
        try {
            for (Encoding encoding : encodings) {
                CommitLog log = CommitLog.open(CommitLogConfig.builder(root.resolve(encoding.name())).syncMode(SyncMode.ADAPTIVE).build(),
                        CommitLogOptions.builder().noJmx().build());
                logs.put(encoding, log);
                counts.put(encoding, new long[] {-1, 0});
            }
            for (int t : threads) {
                for (Encoding encoding : encodings) {
                    double perMs = closedLoop(logs.get(encoding), encoding, t, counts.get(encoding));
                    figures.put(encoding.name() + "/" + t, perMs);
                    err.printf("%d threads, %-12s %,10.1f records/ms%n", t, encoding.name(), perMs);
                }
            }
            for (Encoding encoding : encodings) {
                double perMs = async(logs.get(encoding), encoding, counts.get(encoding));
                figures.put(encoding.name() + "/async", perMs);
                err.printf("async,     %-12s %,10.1f records/ms%n", encoding.name(), perMs);
            }
            for (Encoding encoding : encodings) {
                double perMs = replay(logs.get(encoding), encoding);
                figures.put(encoding.name() + "/replay", perMs);
                err.printf("replay,    %-12s %,10.1f records/ms%n", encoding.name(), perMs);
            }
            print(logs, counts, figures);
        } finally {
            logs.values().forEach(CommitLog::close);
            delete(root);
        }
    }

    private double closedLoop(CommitLog log, Encoding encoding, int threadCount, long[] count) throws InterruptedException {
        AtomicLong appended = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        long[] firstPosition = {-1};
        long stopAt = seconds * 1_000_000_000L;
        List<Thread> writers = new ArrayList<>();
        long[] began = new long[1];
        for (int t = 0; t < threadCount; t++) {
            int offset = t * 131;
            Thread writer = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                long n = 0;
                while (System.nanoTime() - began[0] < stopAt) {
                    long position = encoding.append(log, records, raw, (int) ((offset + n) & 1023));
                    if (n == 0) {
                        synchronized (firstPosition) {
                            firstPosition[0] = firstPosition[0] < 0 ? position : Math.min(firstPosition[0], position);
                        }
                    }
                    n++;
                }
                appended.addAndGet(n);
            }, "codec-writer-" + t);
            writers.add(writer);
            writer.start();
        }
        began[0] = System.nanoTime();
        start.countDown();
        for (Thread writer : writers) {
            writer.join();
        }
        long elapsed = System.nanoTime() - began[0];
        if (count[0] < 0) {
            count[0] = firstPosition[0];
        }
        count[1] += appended.get();
        return appended.get() / (elapsed / 1e6);
    }

    private double async(CommitLog log, Encoding encoding, long[] count) throws InterruptedException {
        AtomicLong durable = new AtomicLong();
        AppendCallback callback = AppendCallback.of(position -> durable.incrementAndGet(), (position, cause) -> {
            throw new IllegalStateException("an asynchronous append failed at " + position, cause);
        });
        long began = System.nanoTime();
        long stopAt = began + seconds * 1_000_000_000L;
        long n = 0;
        while (System.nanoTime() < stopAt) {
            encoding.appendAsync(log, records, raw, (int) (n & 1023), callback);
            n++;
        }
        while (durable.get() < n) {
            Thread.onSpinWait();
        }
        long elapsed = System.nanoTime() - began;
        count[1] += n;
        return n / (elapsed / 1e6);
    }

    private double replay(CommitLog log, Encoding encoding) {
        log.sync();
        long began = System.nanoTime();
        long seen = encoding.replay(log);
        return seen / ((System.nanoTime() - began) / 1e6);
    }

    private void print(Map<Encoding, CommitLog> logs, Map<Encoding, long[]> counts, Map<String, Double> figures) {
        out.printf("%d s a cell, one pass; Adaptive sync; WalRecord samples%n%n", seconds);
        StringBuilder header = new StringBuilder("| encoding | path |");
        StringBuilder rule = new StringBuilder("|---|---|");
        for (int t : threads) {
            header.append(' ').append(t).append(t == 1 ? " thread |" : " threads |");
            rule.append("---|");
        }
        header.append(" appendAsync, 1 thread | replay | payload bytes | log bytes per record |");
        rule.append("---|---|---|---|");
        out.println(header);
        out.println(rule);
        for (Encoding encoding : logs.keySet()) {
            StringBuilder row = new StringBuilder("| ").append(encoding.name()).append(" | ").append(encoding.path()).append(" |");
            for (int t : threads) {
                row.append(cell(figures, encoding.name(), String.valueOf(t)));
            }
            row.append(cell(figures, encoding.name(), "async")).append(cell(figures, encoding.name(), "replay"));
            long[] count = counts.get(encoding);
            double logBytes = (double) (logs.get(encoding).durablePosition() - count[0]) / count[1];
            row.append(String.format(" %.1f | %.1f |", encoding.meanPayload(records, raw), logBytes));
            out.println(row);
        }
        out.println();
        out.println("records/ms, and in brackets the ratio to raw byte[] appends in the same column (one cell each: "
                + "judge a close ratio with --pairs)");
    }

    private static String cell(Map<String, Double> figures, String encoding, String column) {
        double value = figures.get(encoding + "/" + column);
        Double raw = figures.get(Encoding.RAW + "/" + column);
        return raw == null ? String.format(" %,.1f |", value) : String.format(" %,.1f (%.2f) |", value, value / raw);
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
