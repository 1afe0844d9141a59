package dev.commitlog.bench.pair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class SliceScheduleTest {

    @Test
    void everyPairHasOneSliceOfEachAndFirstPlaceAlternatesInBalance() {
        int aFirst = 0;
        for (int p = 0; p < 40; p++) {
            assertNotEquals(SliceSchedule.owner(2 * p), SliceSchedule.owner(2 * p + 1), "pair " + p);
            assertEquals(SliceSchedule.A, SliceSchedule.owner(SliceSchedule.sliceOf(p, SliceSchedule.A)));
            assertEquals(SliceSchedule.B, SliceSchedule.owner(SliceSchedule.sliceOf(p, SliceSchedule.B)));
            if (SliceSchedule.owner(2 * p) == SliceSchedule.A) {
                aFirst++;
            }
        }
        assertEquals(20, aFirst, "each column goes first in half the pairs");
    }
}
