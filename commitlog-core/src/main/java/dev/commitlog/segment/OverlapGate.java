package dev.commitlog.segment;

/**
 * Decides whether a flush may start while another is still running, from what overlapping has
 * cost on this device so far. Overlap pays only when the device really runs syncs in parallel:
 * in a closed loop a writer that finds a flush running waits about half of it and then its own
 * (1.5 flush times), against one overlapped flush if it may start at once; so overlap wins only
 * if an overlapped flush takes less than about 1.5 solo ones, and it also halves each flush's
 * batch. Measured on this project's VM (virtio, ext4) two overlapped fdatasyncs took about 1.8
 * solo ones and pipelining lost 15-30% throughput; a device with many parallel queues and a long
 * flush (network block storage) is where it wins.
 *
 * <p>A flush's time here runs from its claim to its publication, so an overlapped flush that
 * finished first but waited for an earlier one to publish is charged the wait its writers saw.
 * The gate keeps a moving average of solo and overlapped flush times; overlap is allowed while
 * the overlapped average stays below {@link #PAYS_BELOW} times the solo one. Once overlap is denied,
 * one overlapped flush every {@link #PROBE_INTERVAL} flushes refreshes the estimate (a device's
 * behaviour changes with load), at the cost of one flush in that many.
 *
 * <p>Flush-role holder only (the syncer calls it when claiming and publishing).
 */
final class OverlapGate {
    /** An overlapped flush must cost less than this many solo flushes for overlap to be allowed. */
    static final double PAYS_BELOW = 1.15;
    /** With overlap denied, probe it once in this many published flushes. */
    static final int PROBE_INTERVAL = 4096;
    /** Moving averages weigh each new sample 1/16. */
    private static final int SHIFT = 4;

    private final boolean enabled;
    private long soloNanos = -1;
    private long overlappedNanos = -1;
    private int sinceProbe;

    /** @param enabled false: overlap is always allowed (the ablation without the gate) */
    OverlapGate(boolean enabled) {
        this.enabled = enabled;
    }

    /** Whether a flush may be claimed now, while another runs. */
    boolean allowsOverlap() {
        if (!enabled) {
            return true;
        }
        if (soloNanos < 0) {
            return false; // no baseline yet: the first flushes run alone
        }
        if (overlappedNanos < 0 || sinceProbe >= PROBE_INTERVAL) {
            sinceProbe = 0;
            return true; // measure (or re-measure) what overlapping costs
        }
        return overlappedNanos < soloNanos * PAYS_BELOW;
    }

    /** A published flush's claim-to-publication time, and whether any other flush ran during it. */
    void record(long elapsedNanos, boolean overlapped) {
        sinceProbe++;
        if (overlapped) {
            overlappedNanos = average(overlappedNanos, elapsedNanos);
        } else {
            soloNanos = average(soloNanos, elapsedNanos);
        }
    }

    private static long average(long average, long sample) {
        return average < 0 ? sample : average + ((sample - average) >> SHIFT);
    }

    /** Mean solo flush time so far (-1 before the first), for metrics and tests. */
    long soloNanos() {
        return soloNanos;
    }

    /** Mean overlapped flush time so far (-1 before the first). */
    long overlappedNanos() {
        return overlappedNanos;
    }
}
