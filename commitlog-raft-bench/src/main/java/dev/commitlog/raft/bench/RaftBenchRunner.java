package dev.commitlog.raft.bench;

import dev.commitlog.bench.device.DeviceWrites;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Runs the grid: for each pass, each cell, each contender in turn (so contenders at a cell are
 * measured seconds, not an hour, apart; the first one rotates from cell to cell), a fresh cluster,
 * warm-up, one measurement, a clean stop and a timed reopen on the same data (durable contenders,
 * unless --no-reopen), then the cluster's data deleted.
 */
final class RaftBenchRunner {
    /** How long a cluster may take to shut down before the run is given up (see {@link #stopAndDelete}). */
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);
    /** How long every group may take to elect a leader after the last node started (see BenchCluster#start). */
    private static final Duration LEADER_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(10);
    /** The shortest JVM warm-up run, whatever --warmup-seconds says. */
    private static final Duration JVM_WARMUP = Duration.ofMillis(200);
    /**
     * The most groups the JVM warm-up starts: the code paths are the same at 8 groups as at 100,
     * and 300 nodes take minutes to start and reopen on two cores.
     */
    private static final int JVM_WARMUP_GROUPS = 8;

    /** How long the device's other writers are watched before the grid, with this benchmark idle. */
    private static final long DEVICE_IDLE_MILLIS = 1000;

    private final RaftBenchOptions options;
    private final PrintStream progress;
    /** The counter of the device under the data directory, once it exists. */
    private DeviceWrites device = DeviceWrites.NONE;

    RaftBenchRunner(RaftBenchOptions options, PrintStream progress) {
        this.options = options;
        this.progress = progress;
    }

    List<Cell> cells() {
        List<Cell> cells = new ArrayList<>();
        for (int replicas : options.replicas()) {
            for (int payload : options.payloads()) {
                for (int groups : options.groups()) {
                    for (int inflight : options.inflight()) {
                        cells.add(new Cell(replicas, payload, groups, inflight));
                    }
                }
            }
        }
        return cells;
    }

    /** Every pass's measurement of each contender at each cell, in grid order then contender order. */
    List<Passes> run() throws IOException, InterruptedException {
        Files.createDirectories(options.dir());
        device = DeviceWrites.of(options.dir());
        progress.println(device.backgroundLine("before the grid", DEVICE_IDLE_MILLIS));
        for (int groups : options.groups()) {
            for (int inflight : options.inflight()) {
                if (inflight < groups) {
                    progress.printf(Locale.ROOT, "note: %d in flight over %d groups: only the first %d groups carry load%n",
                            inflight, groups, inflight);
                }
            }
        }
        warmUpJvm();
        Map<String, List<Measurement>> repeats = new LinkedHashMap<>();
        for (Cell cell : cells()) {
            for (Contender contender : options.contenders()) {
                repeats.put(key(cell, contender), new ArrayList<>());
            }
        }
        int total = options.measurements();
        int done = 0;
        List<Cell> cells = cells();
        grid:
        for (int pass = 0; pass < options.repeats(); pass++) {
            for (int c = 0; c < cells.size(); c++) {
                Cell cell = cells.get(c);
                for (Contender contender : order(options.contenders(), c, pass)) {
                    Measurement m;
                    try {
                        m = measure(cell, contender, options.measure());
                    } catch (StuckClusterException e) {
                        m = Measurement.failed(cell, contender, e.getMessage());
                        progress.println(progressLine(++done, total, m));
                        repeats.get(key(cell, contender)).add(m);
                        break grid;
                    }
                    done++;
                    progress.println(progressLine(done, total, m));
                    repeats.get(key(cell, contender)).add(m);
                }
            }
        }
        progress.println(device.backgroundLine("after the grid", DEVICE_IDLE_MILLIS));
        List<Passes> out = new ArrayList<>();
        for (Cell cell : cells) {
            for (Contender contender : options.contenders()) {
                List<Measurement> runs = repeats.get(key(cell, contender));
                if (runs.isEmpty()) {   // the grid ended early: a cluster did not shut down
                    runs.add(Measurement.failed(cell, contender, "not run: an earlier cluster did not shut down"));
                }
                out.add(new Passes(cell, contender, runs));
            }
        }
        return out;
    }

    /**
     * One short unrecorded run (about twice the warm-up) of each contender, reopen included, at the
     * first cell (with at most {@link #JVM_WARMUP_GROUPS} groups), so that the first measurements do
     * not pay for class loading and JIT compilation of JRaft's code paths the others then reuse.
     */
    private void warmUpJvm() throws InterruptedException {
        Cell first = cells().get(0);
        Cell cell = new Cell(first.replicas(), first.payload(), Math.min(first.groups(), JVM_WARMUP_GROUPS), first.inflight());
        for (Contender contender : options.contenders()) {
            Measurement m = measure(cell, contender, JVM_WARMUP.compareTo(options.warmup()) > 0 ? JVM_WARMUP : options.warmup());
            progress.println("JVM warm-up, not recorded: " + progressLine(0, 0, m).substring("[0/0] ".length()));
        }
    }

    /**
     * The order of the contenders at cell {@code cell} in pass {@code pass}: rotated by both, so
     * that none is always first after a deletion (page cache, disk state) or always last, and each
     * cell starts with a different one in successive passes (a counter over all cells would not
     * when the contender count divides the cell count).
     */
    static List<Contender> order(List<Contender> contenders, int cell, int pass) {
        return rotated(contenders, cell + pass);
    }

    private static List<Contender> rotated(List<Contender> contenders, int turn) {
        int n = contenders.size();
        List<Contender> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(contenders.get((turn + i) % n));
        }
        return out;
    }

    private static String key(Cell cell, Contender contender) {
        return cell + "/" + contender.label();
    }

    /**
     * One contender at one cell on a fresh cluster: start, warm-up, measurement, reopen; then the
     * cluster stopped and deleted. A stop that does not finish ends the grid with a
     * {@link StuckClusterException} that also says what the measurement found before it.
     */
    Measurement measure(Cell cell, Contender contender, Duration measure) throws InterruptedException {
        Path root = options.dir().toAbsolutePath().resolve(contender.label() + "-" + System.nanoTime());
        BenchCluster cluster = new BenchCluster(contender, root, cell.replicas(), cell.groups());
        Measurement m;
        try {
            m = runAndReopen(cluster, cell, contender, measure);
        } catch (InterruptedException e) {
            stopAndDelete(cluster);
            throw e;
        }
        try {
            stopAndDelete(cluster);
        } catch (StuckClusterException e) {
            throw new StuckClusterException(e.getMessage() + "; before the stop: "
                    + progressLine(0, 0, m).substring("[0/0] ".length()));
        }
        return m;
    }

    private Measurement runAndReopen(BenchCluster cluster, Cell cell, Contender contender, Duration measure)
            throws InterruptedException {
        try (ClosedLoopLoad load = new ClosedLoopLoad(cluster, cell.inflight(), cell.payload())) {
            cluster.start(LEADER_TIMEOUT);
            load.start();
            Thread.sleep(options.warmup().toMillis());

            load.intervalLatencies();   // drop the warm-up's
            long committed0 = load.committed();
            long failed0 = load.failed();
            long fsyncs0 = cluster.fsyncs();
            long device0 = device.bytesWritten();
            long t0 = System.nanoTime();
            Thread.sleep(measure.toMillis());
            long committed = load.committed() - committed0;
            long fsyncs = cluster.fsyncs() - fsyncs0;
            long nanos = System.nanoTime() - t0;
            long deviceBytes = DeviceWrites.between(device0, device.bytesWritten());
            long failed = load.failed() - failed0;
            Histogram latencies = load.intervalLatencies();
            load.stop(DRAIN_TIMEOUT);

            if (committed == 0) {
                return Measurement.failed(cell, contender, "no task committed in " + measure);
            }
            Measurement run = Measurement.run(cell, contender, committed * 1e9 / nanos,
                    latencies.getValueAtPercentile(50) / 1000.0, latencies.getValueAtPercentile(99) / 1000.0,
                    (double) fsyncs / committed, failed,
                    DeviceWrites.perByte(deviceBytes, (double) committed * cell.payload()));
            if (!options.reopen() || !contender.durable()) {
                return run;
            }
            try {
                return reopen(cluster, run, LEADER_TIMEOUT);
            } catch (RuntimeException | IOException e) {
                return run.withReopenFailure(e.toString());
            }
        } catch (RuntimeException | IOException e) {
            return Measurement.failed(cell, contender, e.toString());
        }
    }

    /**
     * Stops and deletes the cluster, waiting at most {@link #STOP_TIMEOUT}. A JRaft node that does
     * not shut down (its lock held for good, see {@link BenchCluster#leader}) would hang the grid;
     * its threads and ports cannot be reclaimed in this JVM, so the run ends there with
     * {@link StuckClusterException}, naming the directory left behind.
     */
    private void stopAndDelete(BenchCluster cluster) throws InterruptedException {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Thread stopper = new Thread(() -> {
            try {
                cluster.stopAndDelete();
            } catch (RuntimeException e) {
                failure.set(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "raft-bench-stop");
        stopper.setDaemon(true);
        stopper.start();
        stopper.join(STOP_TIMEOUT.toMillis());
        if (stopper.isAlive()) {
            throw new StuckClusterException("the cluster in " + cluster.root() + " did not shut down within " + STOP_TIMEOUT
                    + ": a JRaft node is stuck (a thread dump shows which lock); this JVM cannot reclaim its threads and "
                    + "ports, so the run ends here");
        }
        if (failure.get() != null) {
            progress.println("raft-bench: cleaning up " + cluster.root() + ": " + failure.get());
        }
    }

    /**
     * Stops the cluster cleanly once the replicas have settled, measures what its directory holds,
     * and restarts it on the same directories: the open time is the restart's, from the first
     * node's start to every group led and every storage holding what it held before the stop.
     */
    private static Measurement reopen(BenchCluster cluster, Measurement run, Duration timeout)
            throws IOException, InterruptedException {
        long[][] before = cluster.settledLastIndexes();
        cluster.stop();
        DiskUsage retained = DiskUsage.of(cluster.root());
        BenchCluster.Reopening reopening = cluster.restart(before, timeout);
        return run.withReopen(reopening.openNanos() / 1e6, reopening.initNanos() / 1e6, retained);
    }

    private static String progressLine(int done, int total, Measurement m) {
        String head = String.format(Locale.ROOT, "[%d/%d] %s %s: ", done, total, m.cell(), m.contender().label());
        if (!m.ok()) {
            return head + "FAILED " + m.error();
        }
        String device = Double.isNaN(m.devicePerByte()) ? "" : String.format(Locale.ROOT, ", %.1f device B/B", m.devicePerByte());
        String reopen = m.reopenError() != null ? "; reopen FAILED " + m.reopenError()
                : Double.isNaN(m.openMillis()) ? "" : String.format(Locale.ROOT,
                "; reopen %.0f ms (nodes inited %.0f ms), %s retained", m.openMillis(), m.initMillis(), retained(m));
        return head + String.format(Locale.ROOT, "%.0f ops/s, p50 %.2f ms, p99 %.2f ms, %.3f fsyncs/op%s, %d failed tasks%s",
                m.opsPerSec(), m.p50Millis(), m.p99Millis(), m.fsyncsPerOp(), device, m.failures(), reopen);
    }

    private static String retained(Measurement m) {
        String apparent = String.format(Locale.ROOT, "%.1f MiB in files", m.retainedApparentBytes() / (1 << 20));
        return Double.isNaN(m.retainedBytes()) ? apparent
                : String.format(Locale.ROOT, "%.1f MiB allocated (%s)", m.retainedBytes() / (1 << 20), apparent);
    }
}
