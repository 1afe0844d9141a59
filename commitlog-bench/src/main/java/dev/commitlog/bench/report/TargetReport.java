package dev.commitlog.bench.report;

import dev.commitlog.bench.sweep.CellResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Reads the brief's targets from one sweep's own figures: every ratio is between cells of the same
 * run, each measured once. A target whose cells did not run is reported as not measured, never
 * assumed. The verdict describes this pass; a ratio close to its floor is judged with {@code pair}
 * ({@link #PAIR_NOTE}), whose paired slices carry an interval a single pass cannot.
 */
public final class TargetReport {

    static final String BATCH = "batch";
    static final String GROUP_PREFIX = "group-";
    static final String ADAPTIVE = "adaptive";
    static final String PERIODIC = "periodic";
    static final String FSYNC_EACH = "fsync-each";
    static final String ROCKSDB = "rocksdb";
    static final String CHRONICLE = "chronicle-queue";

    /** The line under the targets table: how a close target is judged. */
    public static final String PAIR_NOTE = "These ratios describe this single pass; a close target is judged with "
            + "`pair`, e.g. `pair --a adaptive --b batch --floor 0.95`, and counts as met when its interval "
            + "lies above the floor or straddles it.";

    private TargetReport() {
    }

    public static List<Target> evaluate(SweepResults r) {
        List<Target> targets = new ArrayList<>();
        targets.add(batchVsFsyncEach(r));
        targets.add(adaptiveVsBatchAndGroup(r));
        targets.add(adaptiveVsBatchAtOneThread(r));
        targets.add(durableVsRocksDb(r));
        targets.add(recordsPerFlush(r));
        targets.add(periodicVsChronicle(r));
        targets.add(periodicP99(r));
        targets.add(asyncOneSubmitter(r));
        targets.add(Target.notMeasured("Replay from the page cache, checksums verified", ">= 1 GB/s",
                "a JMH figure (ReplayBenchmark), see docs/benchmarks.md"));
        return targets;
    }

    private static Target batchVsFsyncEach(SweepResults r) {
        return ratioAtOneThread(r, "Batch at 1 thread / fsync-each at 1 thread", BATCH, FSYNC_EACH, 0.95);
    }

    /** The adaptive target, row part: no window to tune, yet as good as the best window. */
    private static Target adaptiveVsBatchAndGroup(SweepResults r) {
        List<Column> rivals = durableCommitLogColumns(r).stream()
                .filter(c -> c.label().equals(BATCH) || c.label().startsWith(GROUP_PREFIX)).toList();
        String name = "Adaptive / best of " + (rivals.isEmpty() ? "Batch and Group"
                : String.join(", ", rivals.stream().map(Column::label).toList())) + ", every thread count";
        double floorValue = 0.95;
        String floor = ">= " + Numbers.ratio(floorValue) + " at every row";
        Optional<RowRatios> ratios = RowRatios.of(r.threads(), t -> r.cell(ADAPTIVE, t), t -> best(r, rivals, t),
                (adaptive, best) -> best.label());
        if (ratios.isEmpty()) {
            return Target.notMeasured(name, floor, "needs adaptive and batch or group in the same rows");
        }
        return Target.judged(name, ratios.get().describe(), floor, ratios.get().worst() >= floorValue);
    }

    /** The adaptive target, lone-writer part: a lone appender must not pay for grouping. */
    private static Target adaptiveVsBatchAtOneThread(SweepResults r) {
        return ratioAtOneThread(r, "Adaptive at 1 thread / Batch at 1 thread", ADAPTIVE, BATCH, 1.0);
    }

    private static Target asyncOneSubmitter(SweepResults r) {
        String name = "Async, one submitting thread (" + r.asyncInFlight() + " in flight): durable appends/s";
        double floorValue = 200_000;
        String floor = ">= " + Numbers.grouped(floorValue);
        Optional<CellResult> best = Optional.empty();
        StringJoiner modes = new StringJoiner(", ");
        for (CellResult c : r.asyncCells()) {
            if (c.threads() == 1) {
                modes.add(c.mode() + " " + Numbers.grouped(c.opsPerSec()));
                if (best.isEmpty() || c.opsPerSec() > best.get().opsPerSec()) {
                    best = Optional.of(c);
                }
            }
        }
        if (best.isEmpty()) {
            return Target.notMeasured(name, floor, "needs the asynchronous section with 1 submitting thread");
        }
        return Target.judged(name, Numbers.grouped(best.get().opsPerSec()) + " (" + modes + ")", floor,
                best.get().opsPerSec() >= floorValue);
    }

    private static Target durableVsRocksDb(SweepResults r) {
        String name = "Best durable mode / RocksDB sync=true, 8..256 threads";
        double floorValue = 2;
        String floor = ">= 2 at every row";
        List<Column> durable = durableCommitLogColumns(r);
        List<Integer> rows = r.threads().stream().filter(t -> t >= 8 && t <= 256).toList();
        Optional<RowRatios> ratios = RowRatios.of(rows, t -> best(r, durable, t), t -> r.cell(ROCKSDB, t),
                (best, rocks) -> best.label());
        if (ratios.isEmpty()) {
            return Target.notMeasured(name, floor, "needs rocksdb and a durable mode at 8..256 threads");
        }
        return Target.judged(name, ratios.get().describe(), floor, ratios.get().worst() >= floorValue);
    }

    /**
     * Judged on the fastest durable mode at 256 threads, the one the RocksDB target credits: a
     * window that groups every writer by waiting for them (Group, 10 ms) would meet it by itself
     * while the mode a user would pick groups far fewer. Every mode's figure is shown beside it.
     */
    private static Target recordsPerFlush(SweepResults r) {
        int t = 256;
        String name = "Records per flush at " + t + " threads (the fastest durable mode)";
        double floorValue = 0.8 * t;
        String floor = String.format(Locale.ROOT, ">= %.1f (0.8 x %d)", floorValue, t);
        List<Column> counted = durableCommitLogColumns(r).stream()
                .filter(c -> r.cell(c.label(), t).filter(cell -> !Double.isNaN(cell.recordsPerFlush())).isPresent())
                .toList();
        Optional<CellResult> fastest = best(r, counted, t);
        if (fastest.isEmpty()) {
            return Target.notMeasured(name, floor, "needs a durable mode at " + t + " threads");
        }
        StringJoiner modes = new StringJoiner(", ");
        for (Column c : counted) {
            modes.add(c.label() + " " + Numbers.fixed(r.cell(c.label(), t).orElseThrow().recordsPerFlush(), 1));
        }
        double v = fastest.get().recordsPerFlush();
        return Target.judged(name, Numbers.fixed(v, 1) + " " + fastest.get().mode() + ", the fastest (" + modes + ")",
                floor, v >= floorValue);
    }

    private static Target periodicVsChronicle(SweepResults r) {
        return ratioAtOneThread(r, "Periodic at 1 thread / Chronicle Queue at 1 thread", PERIODIC, CHRONICLE, 1.0);
    }

    /** {@code numerator}'s ops/s over {@code denominator}'s at 1 thread, against {@code >= floorValue}. */
    private static Target ratioAtOneThread(SweepResults r, String name, String numerator, String denominator,
                                           double floorValue) {
        String floor = ">= " + Numbers.ratio(floorValue);
        Optional<CellResult> a = r.cell(numerator, 1);
        Optional<CellResult> b = r.cell(denominator, 1);
        if (a.isEmpty() || b.isEmpty()) {
            return Target.notMeasured(name, floor, "needs " + numerator + " and " + denominator + " at 1 thread");
        }
        double ratio = a.get().opsPerSec() / b.get().opsPerSec();
        return Target.judged(name, Numbers.ratio(ratio) + " (" + Numbers.grouped(a.get().opsPerSec())
                + " / " + Numbers.grouped(b.get().opsPerSec()) + " ops/s)",
                floor, ratio >= floorValue);
    }

    private static Target periodicP99(SweepResults r) {
        String name = "Periodic p99 append latency at 1 thread";
        String floor = "<= 1 us";
        Optional<CellResult> periodic = r.cell(PERIODIC, 1);
        if (periodic.isEmpty()) {
            return Target.notMeasured(name, floor, "needs periodic at 1 thread");
        }
        double p99 = periodic.get().p99Us();
        return Target.judged(name, Numbers.micros(p99) + " us", floor, p99 <= 1.0);
    }

    /** The durable commit-log columns the targets and ratios compare: every mode, no ablation. */
    static List<Column> durableCommitLogColumns(SweepResults r) {
        return r.columns().stream().filter(c -> c.commitLog() && c.durable() && !c.ablation()).toList();
    }

    private static Optional<CellResult> best(SweepResults r, List<Column> columns, int threads) {
        Optional<CellResult> best = Optional.empty();
        for (Column c : columns) {
            Optional<CellResult> cell = r.cell(c.label(), threads);
            if (cell.isPresent() && (best.isEmpty() || cell.get().opsPerSec() > best.get().opsPerSec())) {
                best = cell;
            }
        }
        return best;
    }
}
