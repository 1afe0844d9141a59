package dev.commitlog.bench.report;

import dev.commitlog.bench.sweep.CellResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Judges the brief's targets against one sweep's own figures: every ratio is between cells of the
 * same run. A target whose cells did not run is reported as not measured, never assumed.
 */
public final class TargetReport {

    static final String BATCH = "batch";
    static final String PERIODIC = "periodic";
    static final String FSYNC_EACH = "fsync-each";
    static final String ROCKSDB = "rocksdb";
    static final String CHRONICLE = "chronicle-queue";

    private TargetReport() {
    }

    public static List<Target> evaluate(SweepResults r) {
        List<Target> targets = new ArrayList<>();
        targets.add(batchVsFsyncEach(r));
        targets.add(durableVsRocksDb(r));
        targets.add(recordsPerFlush(r));
        targets.add(periodicVsChronicle(r));
        targets.add(periodicP99(r));
        targets.add(Target.notMeasured("Replay from the page cache, checksums verified", ">= 1 GB/s",
                "a JMH figure (ReplayBenchmark), see docs/benchmarks.md"));
        return targets;
    }

    private static Target batchVsFsyncEach(SweepResults r) {
        String name = "Batch at 1 thread / fsync-each at 1 thread";
        String floor = ">= 0.95";
        Optional<CellResult> batch = r.cell(BATCH, 1);
        Optional<CellResult> each = r.cell(FSYNC_EACH, 1);
        if (batch.isEmpty() || each.isEmpty()) {
            return Target.notMeasured(name, floor, "needs batch and fsync-each at 1 thread");
        }
        double ratio = batch.get().opsPerSec() / each.get().opsPerSec();
        return Target.judged(name, Numbers.ratio(ratio) + " (" + Numbers.grouped(batch.get().opsPerSec())
                + " / " + Numbers.grouped(each.get().opsPerSec()) + " ops/s)", floor, ratio >= 0.95);
    }

    private static Target durableVsRocksDb(SweepResults r) {
        String name = "Best durable mode / RocksDB sync=true, 8..256 threads";
        String floor = ">= 2 at every row";
        List<Column> durable = durableCommitLogColumns(r);
        double worst = Double.POSITIVE_INFINITY;
        StringJoiner rows = new StringJoiner(", ");
        for (int t : r.threads()) {
            if (t < 8 || t > 256) {
                continue;
            }
            Optional<CellResult> rocks = r.cell(ROCKSDB, t);
            Optional<CellResult> best = best(r, durable, t);
            if (rocks.isEmpty() || best.isEmpty()) {
                continue;
            }
            double ratio = best.get().opsPerSec() / rocks.get().opsPerSec();
            worst = Math.min(worst, ratio);
            rows.add(t + ": " + Numbers.ratio(ratio) + " " + best.get().label());
        }
        if (worst == Double.POSITIVE_INFINITY) {
            return Target.notMeasured(name, floor, "needs rocksdb and a durable mode at 8..256 threads");
        }
        return Target.judged(name, "min " + Numbers.ratio(worst) + " (" + rows + ")", floor, worst >= 2);
    }

    private static Target recordsPerFlush(SweepResults r) {
        int t = 256;
        String name = "Records per flush at " + t + " threads (best durable mode)";
        double floorValue = 0.8 * t;
        String floor = String.format(Locale.ROOT, ">= %.1f (0.8 x %d)", floorValue, t);
        double best = Double.NaN;
        StringJoiner modes = new StringJoiner(", ");
        for (Column c : durableCommitLogColumns(r)) {
            Optional<CellResult> cell = r.cell(c.label(), t);
            if (cell.isPresent() && !Double.isNaN(cell.get().recordsPerFlush())) {
                double v = cell.get().recordsPerFlush();
                modes.add(c.label() + " " + Numbers.fixed(v, 1));
                best = Double.isNaN(best) ? v : Math.max(best, v);
            }
        }
        if (Double.isNaN(best)) {
            return Target.notMeasured(name, floor, "needs a durable mode at " + t + " threads");
        }
        return Target.judged(name, Numbers.fixed(best, 1) + " (" + modes + ")", floor, best >= floorValue);
    }

    private static Target periodicVsChronicle(SweepResults r) {
        String name = "Periodic at 1 thread / Chronicle Queue at 1 thread";
        String floor = ">= 1.00";
        Optional<CellResult> periodic = r.cell(PERIODIC, 1);
        Optional<CellResult> queue = r.cell(CHRONICLE, 1);
        if (periodic.isEmpty() || queue.isEmpty()) {
            return Target.notMeasured(name, floor, "needs periodic and chronicle-queue at 1 thread");
        }
        double ratio = periodic.get().opsPerSec() / queue.get().opsPerSec();
        return Target.judged(name, Numbers.ratio(ratio) + " (" + Numbers.grouped(periodic.get().opsPerSec())
                + " / " + Numbers.grouped(queue.get().opsPerSec()) + " ops/s)", floor, ratio >= 1.0);
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

    static List<Column> durableCommitLogColumns(SweepResults r) {
        return r.columns().stream().filter(c -> c.commitLog() && c.durable()).toList();
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
