package dev.commitlog.segment;

/**
 * Decides whether a flush may start while another is still running, by measuring the one thing
 * that decides it: records made durable per second. Whether overlap pays depends on the device (does
 * it run two syncs in parallel?) and on the load (overlapping halves each flush's batch, and every
 * completion is one more hand-off on a few cores); flush times see only the first. So the log runs
 * short trials: epochs of about {@link #EPOCH_NANOS} with overlap denied and allowed, in the
 * order {@link #TRIAL} (ABBA BAAB, so that a load drifting during the trial weighs on both arms
 * alike), and keeps whichever made more records durable per second. Overlap must win by
 * {@link #OVERLAP_MUST_WIN_BY}: a tie goes to solo flushes, which batch more and sync less.
 *
 * <p>Flushes that run alone start overlapping only when two trials in a row choose overlap; one
 * trial against overlap is enough to go back. Where overlap gains nothing (hundreds of writers on
 * a few cores, where waking them, not the device, sets the pace), the epochs' rates scatter by more
 * than the margin, and a single trial chose overlap by chance (2 of about 16 trials measured at 256
 * writers on this VM); overlap then split the groups until the next trial (70-120 records per flush
 * in the quarter-seconds it ran, against about 240 alone). Two such trials in a row are rarer by
 * that factor again, while a device that really runs flushes in parallel wins most trials. A sign
 * test over the trial's four pairs of epochs was tried instead and lost most of the parallel
 * device's gain: one epoch is too short to win every pair there.
 *
 * <p>Even while overlap is allowed, a flush starts beside a running one only if it carries no fewer
 * records ({@link #allowsOverlap(int, int)}), so overlap never splits a group in two: measured at
 * 256 writers, 2-5% of flushes overlapped instead of 10-21% (most of them in trials), and on the
 * simulated parallel device at 4 writers Adaptive still matched ungated overlap.
 *
 * <p>Between trials the winner runs for a number of epochs that doubles each time a trial confirms
 * it (from {@link #FIRST_EXPLOIT_EPOCHS} to {@link #MAX_EXPLOIT_EPOCHS}, about 2.5 s) and falls
 * back to the first when a trial overturns it: a device or load that stays the same costs a trial
 * (half of it on the losing arm) every few seconds, one that changes is followed within a few
 * hundred milliseconds. An epoch that lasts past {@link #VOID_AFTER_NANOS} saw the load stop or
 * change, so a trial it belongs to is void and starts over. Before the first trial decides,
 * flushes run alone.
 *
 * <p>Measured on this project's VM (virtio, ext4), overlapping every flush it could lost 13-41% from
 * 2 writers up, and on a simulated 1 ms parallel device it gained 18-51% at 2-8 writers (session 3,
 * docs/benchmarks.md): the same
 * engine has to choose differently on each, which a threshold on flush times did not (it opened on
 * the VM at 4 and 32 writers and lost there, and stayed shut on the parallel device at 2 and 4).
 *
 * <p>Flush-role holder only (the syncer calls it when claiming and publishing). Time comes from the
 * caller, so tests drive it without a clock.
 */
final class OverlapTrials {
    /** Minimum length of one epoch of a trial. */
    static final long EPOCH_NANOS = 10_000_000L;
    /** Minimum flushes published in one epoch: fewer say too little about throughput. */
    static final int EPOCH_MIN_FLUSHES = 8;
    /** An epoch this long saw an idle gap or a change of load: the trial it is part of starts over. */
    static final long VOID_AFTER_NANOS = 8 * EPOCH_NANOS;
    /** Overlap is chosen only if its records per second beat solo flushes' by this factor. */
    static final double OVERLAP_MUST_WIN_BY = 1.05;
    /** Epochs the winner runs after a trial that chose it for the first time. */
    static final int FIRST_EXPLOIT_EPOCHS = 16;
    /** The most epochs between two trials. */
    static final int MAX_EXPLOIT_EPOCHS = 256;
    /** Whether overlap is allowed in each epoch of a trial. */
    private static final boolean[] TRIAL = {false, true, true, false, true, false, false, true};

    private final boolean enabled;
    /** The arm in force now. */
    private boolean overlap;
    /** What the last trial chose (solo before the first). */
    private boolean chosen;
    /** A trial chose overlap while solo flushes were chosen: the next trial, run at once, must confirm it. */
    private boolean overlapUnconfirmed;
    /** The epoch of the running trial, or -1 while the winner runs. */
    private int trialEpoch;
    private int exploitLeft;
    private int exploitLength = FIRST_EXPLOIT_EPOCHS;
    private long epochStart = -1;
    private int epochFlushes;
    private long epochRecords;
    private long soloRecords;
    private long soloNanos;
    private long overlapRecords;
    private long overlapNanos;
    private int trials;
    private int voided;

    /** @param enabled false: overlap is always allowed (the ablation without trials) */
    OverlapTrials(boolean enabled) {
        this.enabled = enabled;
        startTrial();
    }

    /** Whether a flush may be claimed now, while another runs. */
    boolean allowsOverlap() {
        return !enabled || overlap;
    }

    /**
     * Whether a flush of {@code records} may start beside the newest running one, of
     * {@code runningRecords}: only if it is no smaller. Overlap is for writers who would otherwise
     * wait for a device that could take their flush now, not for splitting off the few that come
     * back first while a large group is being flushed: those wait, and the flush after it carries
     * the rest of the group with them. With trials off (the ablation) any flush may start.
     */
    boolean allowsOverlap(int records, int runningRecords) {
        return !enabled || (overlap && records >= runningRecords);
    }

    /** A flush of {@code records} records was published at {@code nowNanos}. */
    void published(int records, long nowNanos) {
        if (!enabled) {
            return;
        }
        if (epochStart < 0) {
            epochStart = nowNanos; // the first publication opens the first epoch
            return;
        }
        epochFlushes++;
        epochRecords += records;
        long elapsed = nowNanos - epochStart;
        boolean overlong = elapsed > VOID_AFTER_NANOS;
        if (overlong && trialEpoch >= 0) {
            voided++;
            startTrial();
        } else if (overlong || (elapsed >= EPOCH_NANOS && epochFlushes >= EPOCH_MIN_FLUSHES)) {
            endEpoch(elapsed); // between trials an overlong epoch still counts down to the next trial
        } else {
            return;
        }
        openEpoch(nowNanos);
    }

    private void endEpoch(long elapsed) {
        if (trialEpoch < 0) {
            if (--exploitLeft <= 0) {
                startTrial();
            }
            return;
        }
        if (TRIAL[trialEpoch]) {
            overlapRecords += epochRecords;
            overlapNanos += elapsed;
        } else {
            soloRecords += epochRecords;
            soloNanos += elapsed;
        }
        if (++trialEpoch < TRIAL.length) {
            overlap = TRIAL[trialEpoch];
            return;
        }
        // Records per second, compared without dividing: overlap / overlapNanos > k * solo / soloNanos.
        boolean winner = (double) overlapRecords * soloNanos > OVERLAP_MUST_WIN_BY * soloRecords * overlapNanos;
        trials++;
        boolean doubted = overlapUnconfirmed;
        if (winner && !chosen && !doubted) {
            overlapUnconfirmed = true;
            startTrial(); // solo flushes stay chosen until a second trial agrees
            return;
        }
        overlapUnconfirmed = false;
        boolean confirmed = trials > 1 && winner == chosen && !doubted;
        exploitLength = confirmed ? Math.min(2 * exploitLength, MAX_EXPLOIT_EPOCHS) : FIRST_EXPLOIT_EPOCHS;
        chosen = winner;
        overlap = winner;
        exploitLeft = exploitLength;
        trialEpoch = -1;
    }

    private void startTrial() {
        trialEpoch = 0;
        overlap = TRIAL[0];
        soloRecords = 0;
        soloNanos = 0;
        overlapRecords = 0;
        overlapNanos = 0;
    }

    private void openEpoch(long nowNanos) {
        epochStart = nowNanos;
        epochFlushes = 0;
        epochRecords = 0;
    }

    /**
     * Whether trials are on, none is running, and solo flushes are in force: what the gather
     * (AdaptiveSyncService) waits for, so that it never weighs on a trial's arms.
     */
    boolean soloChosen() {
        return enabled && trialEpoch < 0 && !overlap;
    }

    /** What the last finished trial chose (false before the first), for metrics and tests. */
    boolean chosen() {
        return chosen;
    }

    /** Trials finished so far. */
    int trials() {
        return trials;
    }

    /** Trials that started over after an idle or changing epoch. */
    int voided() {
        return voided;
    }

    /** Whether a trial is running now. */
    boolean inTrial() {
        return trialEpoch >= 0;
    }

    /** Epochs the current winner runs between trials. */
    int exploitLength() {
        return exploitLength;
    }
}
