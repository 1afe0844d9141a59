package dev.commitlog.bench.sweep;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Keeps the rounds that ran on the device the sweep started on ({@code --device-gate F}).
 *
 * <p>Why: this VM's disk has episodes, minutes long, in which every flush takes 5 to 10 times as
 * long (fsync-each falls from ~5,000 to ~700/s). A round that lands in one measures the episode,
 * not the modes: group windows stop mattering, fsync-each collapses, and the row's median and
 * every ratio in it move with the number of rounds the episode covered. The gate probes the
 * device (a short {@link FsyncProbe}) before a row's first round and after each round, and keeps
 * round r when both probes around it, r - 1 and r, are at most F times the sweep's opening probe.
 * A round is dropped from every column of its row at once, so each row's columns keep the same
 * rounds and their per-round ratios stay paired. When no round of a row passes, the row keeps
 * them all and the report says so: the figure is then the episode's, and marked as such.
 */
final class DeviceGate {
    /** A probe of the device: the median of a short run of write + fdatasync, in microseconds. */
    interface Probe {
        double medianUs() throws IOException;
    }

    private static final DeviceGate OFF = new DeviceGate(0, 0, () -> Double.NaN);
    private final double factor;
    private final double referenceUs;
    private final Probe probe;

    DeviceGate(double factor, double referenceUs, Probe probe) {
        this.factor = factor;
        this.referenceUs = referenceUs;
        this.probe = probe;
    }

    static DeviceGate off() {
        return OFF;
    }

    boolean enabled() {
        return factor > 0;
    }

    /** The rule, for the report's header. */
    static String describe(double factor) {
        return String.format(Locale.ROOT, "device gate %.1f: a short fdatasync probe before each row and after "
                + "each round; a row's medians use only the rounds whose probes on both sides are at most %.1f x "
                + "the opening probe, the same rounds in every column (the notes below say what each row kept)",
                factor, factor);
    }

    /** The probe's median now; NaN when the gate is off (nothing is probed). */
    double probe() throws IOException {
        return enabled() ? probe.medianUs() : Double.NaN;
    }

    /** What was decided for one row: the rounds kept (numbered from 1) and a line saying why. */
    record Decision(List<Integer> kept, String note) {
    }

    /**
     * {@code probesUs[0]} was taken before round 1, {@code probesUs[r]} after round r. With the
     * gate off every round is kept and the note is empty.
     */
    Decision decide(String row, double[] probesUs) {
        int rounds = probesUs.length - 1;
        List<Integer> all = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            all.add(r);
        }
        if (!enabled()) {
            return new Decision(all, "");
        }
        double limitUs = factor * referenceUs;
        List<Integer> kept = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            if (Math.max(probesUs[r - 1], probesUs[r]) <= limitUs) {
                kept.add(r);
            }
        }
        StringBuilder probes = new StringBuilder();
        for (double us : probesUs) {
            probes.append(probes.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", us));
        }
        String rule = String.format(Locale.ROOT, "limit %.0f us = %.1f x opening probe %.0f us; probes around the rounds: %s us",
                limitUs, factor, referenceUs, probes);
        if (kept.isEmpty()) {
            return new Decision(all, "device gate, " + row + ": no round passed, all " + rounds
                    + " kept: this row measures a slow episode of the device (" + rule + ")");
        }
        List<Integer> dropped = new ArrayList<>(all);
        dropped.removeAll(kept);
        return new Decision(kept, "device gate, " + row + ": " + kept.size() + " of " + rounds + " rounds kept"
                + (dropped.isEmpty() ? "" : ", dropped " + dropped) + " (" + rule + ")");
    }
}
