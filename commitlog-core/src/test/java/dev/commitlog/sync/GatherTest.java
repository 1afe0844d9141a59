package dev.commitlog.sync;

import static dev.commitlog.sync.Gather.keepGathering;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The gather's stopping rule; AdaptiveGatherTest checks the gather end to end. */
class GatherTest {
    private static final long FLUSH = 200_000;

    @Test
    void waitsWhileWritersComeBackFasterThanTheFlushTimeOverTheRecordsWaiting() {
        // 4 records waiting: one more is worth 200 / 4 = 50 us of their waiting, however long the gather took.
        assertTrue(keepGathering(FLUSH, 0, 50_000, 4));
        assertFalse(keepGathering(FLUSH, 0, 50_001, 4));
        assertFalse(keepGathering(FLUSH, 150_000, 50_001, 4));
    }

    @Test
    void eachRecordGatheredShortensHowLongTheNextIsWorthWaitingFor() {
        assertTrue(keepGathering(FLUSH, 30_000, 40_000, 4));
        assertFalse(keepGathering(FLUSH, 30_000, 40_000, 6));
    }

    @Test
    void neverWaitsLongerThanTheLastFlushTook() {
        assertTrue(keepGathering(FLUSH, FLUSH - 1, 0, 1));
        assertFalse(keepGathering(FLUSH, FLUSH, 0, 1));
    }

    @Test
    void hundredsOfWritersToUnparkAreNotWorthWaitingFor() {
        // 32 records: one more is worth about 6 us, and unparking one writer takes about 12 us here.
        assertFalse(keepGathering(FLUSH, 0, 12_000, 32));
    }
}
