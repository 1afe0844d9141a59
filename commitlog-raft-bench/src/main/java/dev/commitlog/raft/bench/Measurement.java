package dev.commitlog.raft.bench;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One contender at one cell: committed operations per second, commit latency percentiles, syncs per
 * committed operation over all hosts, tasks whose closure failed (leader changes), bytes the data
 * directory's device took per payload byte committed (every replica's copy and everything else the
 * device took in the interval), then the reopen after the run: milliseconds from starting the first
 * node to every group led with its storages loaded ({@code openMillis}) and to every node inited
 * ({@code initMillis}), and the bytes the cluster's directory held at that moment (allocated and
 * apparent, see {@link DiskUsage}), or why the reopen failed ({@code reopenError}: the run's figures
 * stand). NaN is "not measured"; a failed measurement has the error that stopped it and NaN figures.
 */
record Measurement(Cell cell, Contender contender, double opsPerSec, double p50Millis, double p99Millis,
                   double fsyncsPerOp, long failures, String error, double devicePerByte,
                   double openMillis, double initMillis, double retainedBytes, double retainedApparentBytes,
                   String reopenError) {

    static Measurement failed(Cell cell, Contender contender, String error) {
        return new Measurement(cell, contender, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, error, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, null);
    }

    /** A run without a reopen (the memory contender, or reopen not asked for). */
    static Measurement run(Cell cell, Contender contender, double opsPerSec, double p50Millis, double p99Millis,
                           double fsyncsPerOp, long failures, double devicePerByte) {
        return new Measurement(cell, contender, opsPerSec, p50Millis, p99Millis, fsyncsPerOp, failures, null, devicePerByte,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, null);
    }

    /** This run, whose reopen failed for {@code why}; its own figures stand. */
    Measurement withReopenFailure(String why) {
        return new Measurement(cell, contender, opsPerSec, p50Millis, p99Millis, fsyncsPerOp, failures, error, devicePerByte,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, why);
    }

    /** This run with its reopen's figures. */
    Measurement withReopen(double openMillis, double initMillis, DiskUsage retained) {
        return new Measurement(cell, contender, opsPerSec, p50Millis, p99Millis, fsyncsPerOp, failures, error, devicePerByte,
                openMillis, initMillis, retained.allocatedBytes() < 0 ? Double.NaN : retained.allocatedBytes(),
                retained.apparentBytes(), null);
    }

    boolean ok() {
        return error == null;
    }

    /** Ran, and reopened if asked: no error of either. */
    boolean clean() {
        return error == null && reopenError == null;
    }

    /**
     * The median of repeated measurements, figure by figure (each figure's own median); failures
     * are summed, and the first failed reopen's reason kept. Failed repeats are left out; if every
     * repeat failed, the first error stands.
     */
    static Measurement median(List<Measurement> repeats) {
        List<Measurement> ok = repeats.stream().filter(Measurement::ok).toList();
        if (ok.isEmpty()) {
            return repeats.get(0);
        }
        Measurement first = ok.get(0);
        return new Measurement(first.cell, first.contender, median(ok, Measurement::opsPerSec),
                median(ok, Measurement::p50Millis), median(ok, Measurement::p99Millis),
                median(ok, Measurement::fsyncsPerOp), ok.stream().mapToLong(Measurement::failures).sum(), null,
                median(ok, Measurement::devicePerByte), median(ok, Measurement::openMillis),
                median(ok, Measurement::initMillis), median(ok, Measurement::retainedBytes),
                median(ok, Measurement::retainedApparentBytes),
                ok.stream().map(Measurement::reopenError).filter(e -> e != null).findFirst().orElse(null));
    }

    /** The median of a figure over the measurements that have it (NaN is "not measured"); NaN if none has. */
    private static double median(List<Measurement> ms, ToDoubleFunction<Measurement> figure) {
        double[] sorted = ms.stream().mapToDouble(figure).filter(v -> !Double.isNaN(v)).sorted().toArray();
        int n = sorted.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
