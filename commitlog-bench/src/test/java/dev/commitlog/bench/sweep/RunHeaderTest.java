package dev.commitlog.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The header says what a value is, and for an even count of rounds which rounds the median comes from. */
class RunHeaderTest {

    @Test
    void oddAndEvenRoundCountsSayWhereEachFigureComesFrom() {
        assertTrue(RunHeader.rounds(1).startsWith("1 round per cell: every value is a single measurement"));
        assertEquals("3 rounds per cell, interleaved (a row runs all its columns once per round, each round starting "
                + "one column later): every value is the MEDIAN of the 3 rounds (ops/s their median; latencies and "
                + "flush figures those of the median-throughput round)", RunHeader.rounds(3));
        assertEquals("4 rounds per cell, interleaved (a row runs all its columns once per round, each round starting "
                + "one column later): every value is the MEDIAN of the 4 rounds (ops/s their median, for an even "
                + "count the mean of the two middle rounds; latencies and flush figures those of the lower of the "
                + "two middle rounds)", RunHeader.rounds(4));
    }
}
