package dev.commitlog.bench.codec;

import dev.commitlog.AppendCallback;
import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.bench.UsageException;
import dev.commitlog.codecs.example.WalRecord;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * {@code codecs}: the cost of encoding on the durable append path, one log per encoding (Adaptive
 * sync, real disk): records/ms appended from 1, 8 and 64 threads in a closed loop, through
 * {@code appendAsync} from one thread, replayed from the page cache, and the bytes each record
 * takes in the payload and on the log. Cells are interleaved (each thread count runs every encoding
 * in turn) so that drift on a shared machine falls on all of them alike; with {@code --rounds N}
 * each figure is the median of N.
 */
public final class CodecBench {
    public static final String USAGE = """
            usage: codecs [--seconds S] [--rounds N] [--threads 1,8,64] [--only raw,hand,...] [--dir bench-out]
              Appends WalRecords (100-300 bytes) durably (Adaptive) through every encoding and prints
              records/ms appended, appended async, replayed, and bytes per record.""";

    private final int seconds;
    private final int rounds;
    private final int[] threads;
    private final List<Encoding> encodings;
    private final Path base;
    private final PrintStream out;
    private final PrintStream err;
    private final WalRecord[] records = Encoding.samples();
    private final byte[][] raw = Encoding.rawSamples(records);

    private CodecBench(int seconds, int rounds, int[] threads, List<Encoding> encodings, Path base, PrintStream out, PrintStream err) {
        this.seconds = seconds;
        this.rounds = rounds;
        this.threads = threads;
        this.encodings = encodings;
        this.base = base;
        this.out = out;
        this.err = err;
    }

    public static CodecBench parse(List<String> args, PrintStream out, PrintStream err) throws UsageException {
        int seconds = 2;
        int rounds = 1;
        int[] threads = {1, 8, 64};
        List<Encoding> encodings = Encoding.all();
        Path dir = Path.of("bench-out");
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            if (i + 1 >= args.size()) {
                throw new UsageException(flag + " needs a value");
            }
            String value = args.get(++i);
            try {
                switch (flag) {
                    case "--seconds" -> seconds = Integer.parseInt(value);
                    case "--rounds" -> rounds = Integer.parseInt(value);
                    case "--threads" -> threads = Arrays.stream(value.split(",")).mapToInt(Integer::parseInt).toArray();
                    case "--only" -> encodings = Arrays.stream(value.split(",")).map(Encoding::named).toList();
                    case "--dir" -> dir = Path.of(value);
                    default -> throw new UsageException("unknown flag " + flag);
                }
            } catch (IllegalArgumentException e) {
                throw new UsageException(flag + " " + value + ": " + e.getMessage());
            }
        }
        if (seconds < 1 || rounds < 1 || threads.length == 0) {
            throw new UsageException("--seconds and --rounds must be at least 1, and --threads name one count");
        }
        return new CodecBench(seconds, rounds, threads, encodings, dir, out, err);
    }

    public void run() throws Exception {
        Path root = Files.createTempDirectory(Files.createDirectories(base), "codecs-");
        Map<Encoding, CommitLog> logs = new LinkedHashMap<>();
        Map<Encoding, long[]> counts = new LinkedHashMap<>(); // first position, records appended
        Map<String, List<Double>> figures = new LinkedHashMap<>();
        try {
            for (Encoding encoding : encodings) {
                CommitLog log = CommitLog.open(CommitLogConfig.builder(root.resolve(encoding.name())).syncMode(SyncMode.ADAPTIVE).build(),
                        CommitLogOptions.builder().noJmx().build());
                logs.put(encoding, log);
                counts.put(encoding, new long[] {-1, 0});
            }
            for (int round = 0; round < rounds; round++) {
                for (int t : threads) {
                    for (Encoding encoding : encodings) {
                        double perMs = closedLoop(logs.get(encoding), encoding, t, counts.get(encoding));
                        figures.computeIfAbsent(encoding.name() + "/" + t, k -> new ArrayList<>()).add(perMs);
                        err.printf("round %d, %d threads, %-12s %,10.1f records/ms%n", round + 1, t, encoding.name(), perMs);
                    }
                }
                for (Encoding encoding : encodings) {
                    double perMs = async(logs.get(encoding), encoding, counts.get(encoding));
                    figures.computeIfAbsent(encoding.name() + "/async", k -> new ArrayList<>()).add(perMs);
                    err.printf("round %d, async,     %-12s %,10.1f records/ms%n", round + 1, encoding.name(), perMs);
                }
                for (Encoding encoding : encodings) {
                    double perMs = replay(logs.get(encoding), encoding);
                    figures.computeIfAbsent(encoding.name() + "/replay", k -> new ArrayList<>()).add(perMs);
                    err.printf("round %d, replay,    %-12s %,10.1f records/ms%n", round + 1, encoding.name(), perMs);
                }
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
            int i = (int) (n & 1023);
            if (encoding.raw()) {
                log.appendAsync(raw[i], 0, raw[i].length, callback);
            } else {
                log.appendAsync(records[i], encoding.codec(), callback);
            }
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
        long[] seen = new long[1];
        long began = System.nanoTime();
        if (encoding.raw()) {
            log.replay(0, (position, payload) -> seen[0] += payload.remaining() > 0 ? 1 : 1);
        } else {
            log.replay(0, encoding.codec(), (position, record) -> seen[0] += record.txnId != 0 ? 1 : 1);
        }
        return seen[0] / ((System.nanoTime() - began) / 1e6);
    }

    private void print(Map<Encoding, CommitLog> logs, Map<Encoding, long[]> counts, Map<String, List<Double>> figures) {
        out.printf("%d s a cell, %d round(s), medians; Adaptive sync; WalRecord samples%n%n", seconds, rounds);
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
        out.println("records/ms (median), and in brackets the ratio to raw byte[] appends in the same column");
    }

    private static String cell(Map<String, List<Double>> figures, String encoding, String column) {
        double value = median(figures.get(encoding + "/" + column));
        double raw = figures.containsKey("raw/" + column) ? median(figures.get("raw/" + column)) : Double.NaN;
        return Double.isNaN(raw) ? String.format(" %,.1f |", value) : String.format(" %,.1f (%.2f) |", value, value / raw);
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
