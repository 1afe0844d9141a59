package dev.commitlog.segment;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/**
 * The overlap trials keep whichever arm made more records durable per second. A simulated device
 * publishes a flush every {@code flushNanos} carrying {@code records} records, for each arm.
 */
class OverlapTrialsTest {
    private static final long FLUSH = 200_000; // 0.2 ms: 50 flushes per 10 ms epoch

    /**
     * Publishes flushes back to back, each carrying the records and taking the time of the arm the
     * trials allow when it is claimed, and counts the time spent overlapping.
     */
    private static final class Device {
        final OverlapTrials trials;
        long now;
        int soloRecords = 4;
        int overlapRecords;
        long overlapFlushNanos;
        long overlapNanos;
        long totalNanos;

        /** A device on which an overlapped flush carries {@code overlapRecords} in {@code overlapFlushNanos}. */
        Device(int overlapRecords, long overlapFlushNanos) {
            this.trials = new OverlapTrials(true);
            this.overlapRecords = overlapRecords;
            this.overlapFlushNanos = overlapFlushNanos;
        }

        /** Runs flushes for {@code epochs} epochs' worth of time. */
        void run(int epochs) {
            long end = now + epochs * OverlapTrials.EPOCH_NANOS;
            while (now < end) {
                flush();
            }
        }

        /** Runs flushes until one more trial has finished. */
        void runUntilNextTrialEnds() {
            int before = trials.trials();
            for (int i = 0; i < 1_000_000 && trials.trials() == before; i++) {
                flush();
            }
            assertEquals(before + 1, trials.trials());
        }

        private void flush() {
            boolean overlapping = trials.allowsOverlap();
            long took = overlapping ? overlapFlushNanos : FLUSH;
            now += took;
            totalNanos += took;
            if (overlapping) {
                overlapNanos += took;
            }
            trials.published(overlapping ? overlapRecords : soloRecords, now);
        }

        double overlapShare() {
            return (double) overlapNanos / totalNanos;
        }
    }

    @Test
    void flushesRunAloneUntilATrialChoosesOverlap() {
        OverlapTrials trials = new OverlapTrials(true);
        assertFalse(trials.allowsOverlap());
        assertTrue(trials.inTrial());
    }

    @Test
    void aDeviceWhereOverlapLosesKeepsFlushesAlone() {
        Device device = new Device(2, FLUSH * 9 / 10); // overlapped flushes carry half the batch at about the same rate: -50%
        device.run(9); // the first publication opens the first epoch; then 8 trial epochs
        assertEquals(1, device.trials.trials());
        assertFalse(device.trials.chosen());
        assertFalse(device.trials.allowsOverlap());
        device.run(2_000);
        assertFalse(device.trials.chosen());
        // Trials get rarer while they confirm the choice: half of each trial's 8 epochs overlap.
        assertEquals(OverlapTrials.MAX_EXPLOIT_EPOCHS, device.trials.exploitLength());
        assertTrue(device.overlapShare() < 0.05, "share of the time spent overlapping: " + device.overlapShare());
    }

    @Test
    void aParallelDeviceWhereOverlapWinsOverlaps() {
        Device device = new Device(3, FLUSH / 2); // 3 records per 0.1 ms against 4 per 0.2 ms: +50%
        device.run(9); // the first publication opens the first epoch; then 8 trial epochs
        assertEquals(1, device.trials.trials());
        assertFalse(device.trials.chosen(), "one trial is not enough to start overlapping");
        assertTrue(device.trials.inTrial(), "the trial that must confirm it runs at once");
        device.run(8);
        assertEquals(2, device.trials.trials());
        assertTrue(device.trials.chosen());
        assertTrue(device.trials.allowsOverlap());
        device.run(2_000);
        assertTrue(device.trials.chosen());
        assertTrue(device.overlapShare() > 0.95, "share of the time spent overlapping: " + device.overlapShare());
    }

    @Test
    void aTrialThatChoseOverlapByChanceIsOverruledByTheNext() {
        OverlapTrials trials = new OverlapTrials(true);
        long now = 0;
        trials.published(1, now); // opens the first epoch
        now = trial(trials, now, 400, 480); // overlap +20%: chosen, but not yet adopted
        assertEquals(1, trials.trials());
        assertFalse(trials.allowsOverlap() && !trials.inTrial(), "overlap is not adopted on one trial");
        trial(trials, now, 400, 400);       // a tie: solo flushes
        assertEquals(2, trials.trials());
        assertFalse(trials.chosen());
        assertFalse(trials.inTrial());
        assertFalse(trials.allowsOverlap());
        assertEquals(OverlapTrials.FIRST_EXPLOIT_EPOCHS, trials.exploitLength(), "two trials that disagreed confirm nothing");
    }

    @Test
    void goingBackToSoloFlushesTakesOneTrial() {
        OverlapTrials trials = new OverlapTrials(true);
        long now = 0;
        trials.published(1, now);
        now = trial(trials, now, 400, 600);
        now = trial(trials, now, 400, 600);
        assertTrue(trials.chosen());
        while (!trials.inTrial()) { // the exploit epochs, overlapped
            now = epoch(trials, now, 600);
        }
        trial(trials, now, 400, 400);
        assertFalse(trials.chosen());
        assertFalse(trials.inTrial(), "no second trial when the choice goes back to solo flushes");
    }

    @Test
    void anOverlappedFlushMayNotBeSmallerThanTheNewestRunningOne() {
        OverlapTrials trials = overlapChosen();
        assertTrue(trials.allowsOverlap());
        assertFalse(trials.allowsOverlap(2, 3), "two records may not split from a group of three");
        assertTrue(trials.allowsOverlap(3, 3));
        OverlapTrials ungated = new OverlapTrials(false);
        assertTrue(ungated.allowsOverlap(1, 100), "the ablation overlaps whatever the sizes");
    }

    /** Trials that chose overlap (two in a row) and run it now. */
    static OverlapTrials overlapChosen() {
        OverlapTrials trials = new OverlapTrials(true);
        trials.published(1, 0);
        long now = trial(trials, 0, 400, 600);
        trial(trials, now, 400, 600);
        assertTrue(trials.chosen() && !trials.inTrial());
        return trials;
    }

    /** Publishes one whole trial: each solo epoch makes {@code solo} records durable, each overlapped one {@code overlapped}. */
    private static long trial(OverlapTrials trials, long start, int solo, int overlapped) {
        long now = start;
        for (int i = 0; i < 8; i++) { // a trial's eight epochs, in its order
            now = epoch(trials, now, trials.allowsOverlap() ? overlapped : solo);
        }
        return now;
    }

    /** Publishes one epoch of {@code records} records in {@link OverlapTrials#EPOCH_MIN_FLUSHES} flushes; returns its end. */
    private static long epoch(OverlapTrials trials, long start, int records) {
        int flushes = OverlapTrials.EPOCH_MIN_FLUSHES;
        long now = start;
        for (int i = 0; i < flushes; i++) {
            now += OverlapTrials.EPOCH_NANOS / flushes;
            trials.published(records / flushes, now);
        }
        return now;
    }

    @Test
    void aTieGoesToSoloFlushes() {
        Device device = new Device(4, FLUSH * 97 / 100); // 3% faster overlapped: inside the margin
        device.run(9);
        assertEquals(1, device.trials.trials());
        assertFalse(device.trials.chosen());
    }

    @Test
    void aChangeOfDeviceIsFollowedAtTheNextTrial() {
        Device device = new Device(3, FLUSH / 2);
        device.run(500);
        device.runUntilNextTrialEnds(); // so that the next trial runs wholly on the changed device
        assertTrue(device.trials.chosen());
        device.overlapRecords = 1; // now overlapped flushes lose badly
        device.overlapFlushNanos = FLUSH;
        device.runUntilNextTrialEnds();
        assertFalse(device.trials.chosen());
        assertEquals(OverlapTrials.FIRST_EXPLOIT_EPOCHS, device.trials.exploitLength(), "a reversal starts the exploit length over");
    }

    @Test
    void anIdleGapVoidsTheTrial() {
        Device device = new Device(3, FLUSH / 2);
        device.run(4);
        device.now += OverlapTrials.VOID_AFTER_NANOS * 2; // the log went idle during an epoch
        device.trials.published(1, device.now);
        assertEquals(1, device.trials.voided());
        assertEquals(0, device.trials.trials());
        assertFalse(device.trials.allowsOverlap(), "a voided trial starts over on its first, solo arm");
        device.runUntilNextTrialEnds();
        device.runUntilNextTrialEnds(); // the second, which confirms overlap
        assertTrue(device.trials.chosen());
    }

    @Test
    void anEpochNeedsEnoughFlushes() {
        OverlapTrials trials = new OverlapTrials(true);
        long now = 0;
        trials.published(1, now);
        for (int i = 0; i < OverlapTrials.EPOCH_MIN_FLUSHES - 1; i++) {
            now += OverlapTrials.EPOCH_NANOS; // slow flushes: long enough, but too few
            trials.published(1, now);
            assertFalse(trials.allowsOverlap(), "flush " + i + " still in the first, solo epoch");
        }
        now += OverlapTrials.EPOCH_NANOS / 8;
        trials.published(1, now);
        assertTrue(trials.allowsOverlap(), "the second epoch of a trial allows overlap");
    }

    @Test
    void disabledAlwaysAllows() {
        OverlapTrials trials = new OverlapTrials(false);
        assertTrue(trials.allowsOverlap());
        trials.published(1, 0);
        trials.published(1, OverlapTrials.VOID_AFTER_NANOS * 2);
        assertTrue(trials.allowsOverlap());
    }
}
