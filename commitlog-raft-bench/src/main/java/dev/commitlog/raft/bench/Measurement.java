package dev.commitlog.raft.bench;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One contender at one cell: committed operations per second, commit latency percentiles, syncs per
 * committed operation over all hosts, tasks whose closure failed (leader changes), or the error that
 * stopped the measurement. A failed measurement has NaN figures.
 */
record Measurement(Cell cell, Contender contender, double opsPerSec, double p50Millis, double p99Millis,
                   double fsyncsPerOp, long failures, String error) {

    static Measurement failed(Cell cell, Contender contender, String error) {
        return new Measurement(cell, contender, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, error);
    }

    boolean ok() {
        return error == null;
    }

    /**
     * The median of repeated measurements, figure by figure (each figure's own median); failures
     * are summed. Failed repeats are left out; if every repeat failed, the first error stands.
     */
    static Measurement median(List<Measurement> repeats) {
        List<Measurement> ok = repeats.stream().filter(Measurement::ok).toList();
        if (ok.isEmpty()) {
            return repeats.get(0);
        }
        Measurement first = ok.get(0);
        return new Measurement(first.cell, first.contender, median(ok, Measurement::opsPerSec),
                median(ok, Measurement::p50Millis), median(ok, Measurement::p99Millis),
                median(ok, Measurement::fsyncsPerOp), ok.stream().mapToLong(Measurement::failures).sum(), null);
    }

    private static double median(List<Measurement> ms, ToDoubleFunction<Measurement> figure) {
        double[] sorted = ms.stream().mapToDouble(figure).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
