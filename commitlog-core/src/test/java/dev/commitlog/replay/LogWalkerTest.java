package dev.commitlog.replay;

import static dev.commitlog.CorruptionListener.Damage.BAD_FRAME;
import static dev.commitlog.CorruptionListener.Damage.DAMAGED_HEADER;
import static dev.commitlog.CorruptionListener.Damage.GAP;
import static dev.commitlog.CorruptionListener.Damage.OVERLAP;
import static dev.commitlog.CorruptionListener.Damage.TORN_TAIL;
import static dev.commitlog.config.ReplayPolicy.SKIP_CORRUPT;
import static dev.commitlog.config.ReplayPolicy.STRICT;
import static dev.commitlog.config.ReplayPolicy.TOLERATE_TAIL;
import static dev.commitlog.replay.DamagedLog.SEGMENT_SIZE;
import static dev.commitlog.replay.DamagedLog.base;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.replay.DamagedLog.Report;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One named case per way a log can be torn or damaged, in the manner of LevelDB's
 * {@code log_test.cc}: each test damages a copy of the {@link PristineLog} in one way and says,
 * under each {@link ReplayPolicy}, what the walk does (ends the log, reports, refuses), the kind
 * and position of the damage, and exactly which records are handed over.
 *
 * <p>The pristine log: segments 0 and 1 full and closed by end markers, segment 2 the tail (its
 * durable mark is the end of the log, written by the clean close), segment 3 prepared and empty;
 * an aborted claim in segment 0. A walk runs as recovery's: from 0 to the end, a bad frame at or
 * after the highest durable mark being a torn tail.
 */
class LogWalkerTest {
    /** The policies that refuse damage below the durable mark: only {@code skip_corrupt} goes past it. */
    private static final List<ReplayPolicy> REFUSING = List.of(STRICT, TOLERATE_TAIL);

    private final DamagedLog log = new DamagedLog();

    // ---- the end of the log and torn tails ----

    @Test
    void anUnwrittenFrameAfterTheLastRecordIsTheEndOfTheLog() {
        for (ReplayPolicy policy : ReplayPolicy.values()) {
            log.walk(policy).assertEndsAt(log.endPosition()).assertHandedOver(log.allRecords());
        }
    }

    @Test
    void truncatedTrailingRecordIsATornTail() {
        // A crash during the last flush: the mark (written by an earlier flush) is at the last
        // record, whose second half never reached the device, nor anything after it.
        long last = log.lastRecord(2, 16);
        log.setDurableMark(2, last);
        log.zeroFrom(last + RecordDescriptor.FRAME_HEADER_LENGTH + log.payloadLength(last) / 2);

        log.walk(STRICT).assertRefused(TORN_TAIL, last, "torn tail: checksum mismatch").assertHandedOver(log.recordsBefore(last));
        for (ReplayPolicy policy : List.of(TOLERATE_TAIL, SKIP_CORRUPT)) {
            log.walk(policy)
                    .assertEndsAt(last, new Report(TORN_TAIL, last, "torn tail: checksum mismatch", "log ends here"))
                    .assertHandedOver(log.recordsBefore(last));
        }
    }

    @Test
    void zeroLengthAtTheDurableMarkIsTheEndOfTheLogNotDamage() {
        // The mark vouches for what lies below it only: a frame never published at the mark is where the log ends.
        long last = log.lastRecord(2, 0);
        log.setDurableMark(2, last);
        log.zeroFrom(last);
        for (ReplayPolicy policy : ReplayPolicy.values()) {
            log.walk(policy).assertEndsAt(last).assertHandedOver(log.recordsBefore(last));
        }
    }

    @Test
    void badFrameAtTheDurableMarkIsATornTail() {
        long last = log.lastRecord(2, 1);
        log.setDurableMark(2, last);
        log.flipPayloadByte(last);

        log.walk(STRICT).assertRefused(TORN_TAIL, last, "checksum mismatch").assertHandedOver(log.recordsBefore(last));
        for (ReplayPolicy policy : List.of(TOLERATE_TAIL, SKIP_CORRUPT)) {
            log.walk(policy)
                    .assertEndsAt(last, new Report(TORN_TAIL, last, "checksum mismatch", "the unflushed tail after it is discarded"))
                    .assertHandedOver(log.recordsBefore(last));
        }
    }

    @Test
    void aBadFrameAfterTheLastRecordIsATornTail() {
        // Past the exact mark a clean close wrote: a frame header with no valid record behind it.
        long end = log.endPosition();
        log.putLengthWord(end, RecordDescriptor.frameLength(100));
        log.flipChecksum(end);

        log.walk(STRICT).assertRefused(TORN_TAIL, end, "checksum mismatch").assertHandedOver(log.allRecords());
        for (ReplayPolicy policy : List.of(TOLERATE_TAIL, SKIP_CORRUPT)) {
            log.walk(policy).assertEndsAt(end, new Report(TORN_TAIL, end, "checksum mismatch", "log ends here"))
                    .assertHandedOver(log.allRecords());
        }
    }

    // ---- damage to a frame below the durable mark ----

    @Test
    void checksumMismatchBelowTheDurableMarkIsDamage() {
        long damaged = log.record(1, 5, 16);
        log.flipPayloadByte(damaged);
        assertBadFrameSkipped(damaged, "checksum mismatch");
    }

    @Test
    void badFrameJustBelowTheDurableMarkIsDamage() {
        // A bad record the mark has just passed: flushed, so a crash cannot explain it. The records
        // after it lie at or past the mark, and verify: they are handed over.
        List<Long> tail = log.recordsIn(2);
        long damaged = log.record(2, tail.size() - 4, 1);
        log.setDurableMark(2, log.next(damaged));
        log.flipPayloadByte(damaged);
        assertBadFrameSkipped(damaged, "checksum mismatch");
    }

    @Test
    void damageToTheLastRecordBelowTheMarkGivesUpTheRestOfTheTailSegment() {
        // Nothing after the damaged record verifies in the tail segment (it has no end marker), so
        // skip_corrupt gives the rest of it up and the log goes on, empty, in the next segment.
        long damaged = log.lastRecord(2, 1);
        assertEquals(log.endPosition(), log.next(damaged), "the last record of the log");
        log.flipPayloadByte(damaged);
        for (ReplayPolicy policy : REFUSING) {
            log.walk(policy).assertRefused(BAD_FRAME, damaged, "checksum mismatch").assertHandedOver(log.recordsBefore(damaged));
        }
        log.walk(SKIP_CORRUPT)
                .assertEndsAt(base(3) + SegmentDescriptor.SEGMENT_HEADER_LENGTH,
                        new Report(BAD_FRAME, damaged, "checksum mismatch", "record skipped"),
                        new Report(BAD_FRAME, damaged, "no valid frame after the damage in this segment", "rest of segment skipped"))
                .assertHandedOver(log.records(p -> p < damaged));
    }

    @Test
    void badLengthWordIsCaughtByTheChecksum() {
        // One aligned word too long: still inside the segment, but the length word is under the CRC.
        long damaged = log.record(1, 3, 0);
        log.putLengthWord(damaged, log.lengthWord(damaged) + RecordDescriptor.ALIGNMENT);
        assertBadFrameSkipped(damaged, "checksum mismatch");
    }

    @Test
    void lengthShorterThanAFrameHeaderIsDamage() {
        long damaged = log.record(1, 4, 0);
        log.putLengthWord(damaged, 3);
        assertBadFrameSkipped(damaged, "frame length 3 is shorter than the 8-byte frame header");
    }

    @Test
    void recordRunningPastTheSegmentEndIsDamage() {
        // The last record before segment 1's end marker, with a length that would run past the segment.
        List<Long> inSegment = log.recordsIn(1);
        long last = inSegment.get(inSegment.size() - 1);
        log.putLengthWord(last, (int) (base(2) - last));
        assertBadFrameSkipped(last, "runs past the end of the segment");
    }

    @Test
    void zeroLengthMidSegmentIsDamage() {
        // Below the mark a frame was flushed, so a length word of zero there is lost data, not the end.
        long damaged = log.record(0, 10, 0);
        log.putLengthWord(damaged, 0);
        assertBadFrameSkipped(damaged, "no frame was ever written here");
    }

    @Test
    void nonZeroPaddingIsDamage() {
        long padded = log.recordWithPadding(1);
        log.dirtyPadding(padded);
        assertBadFrameSkipped(padded, "non-zero padding byte after a " + log.payloadLength(padded) + "-byte record");
    }

    /**
     * Under the refusing policies the walk throws {@code BAD_FRAME} at
     * {@code damaged}, having handed over every record before it; under {@code skip_corrupt} it
     * reports it, finds the next frame and hands over every other record.
     */
    private void assertBadFrameSkipped(long damaged, String reason) {
        for (ReplayPolicy policy : REFUSING) {
            log.walk(policy).assertRefused(BAD_FRAME, damaged, reason).assertHandedOver(log.recordsBefore(damaged));
        }
        log.walk(SKIP_CORRUPT)
                .assertEndsAt(log.endPosition(), new Report(BAD_FRAME, damaged, reason, "record skipped"))
                .assertHandedOver(log.recordsExcept(damaged));
    }

    // ---- aborted claims and end markers ----

    @Test
    void abortedClaimIsSkipped() {
        long aborted = log.abortedClaim();
        for (ReplayPolicy policy : ReplayPolicy.values()) {
            DamagedLog.Walk walk = log.walk(policy).assertEndsAt(log.endPosition()).assertHandedOver(log.allRecords());
            assertFalse(walk.handedOver.contains(aborted), "the aborted claim is no record");
            long after = aborted - log.lengthWord(aborted); // an aborted claim's length word is minus its frame's length
            assertTrue(walk.handedOver.contains(after), "the record after the aborted claim is handed over");
        }
    }

    @Test
    void abortedClaimWithABadChecksumIsDamage() {
        long aborted = log.abortedClaim();
        log.flipChecksum(aborted);
        for (ReplayPolicy policy : REFUSING) {
            log.walk(policy).assertRefused(BAD_FRAME, aborted, "aborted-claim marker with a bad checksum")
                    .assertHandedOver(log.recordsBefore(aborted));
        }
        log.walk(SKIP_CORRUPT)
                .assertEndsAt(log.endPosition(), new Report(BAD_FRAME, aborted, "aborted-claim marker with a bad checksum", "record skipped"))
                .assertHandedOver(log.allRecords());
    }

    @Test
    void abortedClaimLongerThanTheSegmentIsDamage() {
        long aborted = log.abortedClaim();
        log.putLengthWord(aborted, -2 * SEGMENT_SIZE);
        for (ReplayPolicy policy : REFUSING) {
            log.walk(policy).assertRefused(BAD_FRAME, aborted, "aborted-claim length " + 2 * SEGMENT_SIZE + " is not a valid frame size")
                    .assertHandedOver(log.recordsBefore(aborted));
        }
        log.walk(SKIP_CORRUPT).assertEndsAt(log.endPosition(), new Report(BAD_FRAME, aborted, "aborted-claim length", "record skipped"))
                .assertHandedOver(log.allRecords());
    }

    @Test
    void endMarkerWithABadChecksumIsDamageAndTheNextSegmentIsRead() {
        long marker = log.endMarker(0);
        log.flipChecksum(marker);
        for (ReplayPolicy policy : REFUSING) {
            log.walk(policy).assertRefused(BAD_FRAME, marker, "end-of-segment marker with a bad checksum")
                    .assertHandedOver(log.records(p -> p < base(1)));
        }
        // Nothing after the marker verifies, so the rest of segment 0 is given up: there is nothing in it.
        log.walk(SKIP_CORRUPT)
                .assertEndsAt(log.endPosition(),
                        new Report(BAD_FRAME, marker, "end-of-segment marker with a bad checksum", "record skipped"),
                        new Report(BAD_FRAME, marker, "no valid frame after the damage in this segment", "rest of segment skipped"))
                .assertHandedOver(log.allRecords());
    }

    // ---- whole segment files ----

    @Test
    void damagedSegmentHeaderLosesTheWholeFile() {
        log.damageHeader(1);
        for (ReplayPolicy policy : REFUSING) {
            log.walk(policy).assertRefused(DAMAGED_HEADER, base(1), "damaged segment header: bad magic")
                    .assertHandedOver(log.records(p -> p < base(1)));
        }
        // Skipped whole; the positions it held are then a gap before segment 2.
        log.walk(SKIP_CORRUPT)
                .assertEndsAt(log.endPosition(),
                        new Report(DAMAGED_HEADER, base(1), "damaged segment header: bad magic", "segment skipped"),
                        new Report(GAP, base(1), "log positions " + base(1) + " to " + base(2) + " are missing", "gap skipped"))
                .assertHandedOver(log.records(p -> p < base(1) || p >= base(2)));
    }

    @Test
    void missingSegmentIsAGap() {
        log.deleteSegment(1);
        for (ReplayPolicy policy : REFUSING) {
            log.walk(policy).assertRefused(GAP, base(1), "log positions " + base(1) + " to " + base(2) + " are missing")
                    .assertHandedOver(log.records(p -> p < base(1)));
        }
        log.walk(SKIP_CORRUPT)
                .assertEndsAt(log.endPosition(), new Report(GAP, base(1), "are missing (a segment file is gone or was renamed)", "gap skipped"))
                .assertHandedOver(log.records(p -> p < base(1) || p >= base(2)));
    }

    @Test
    void missingOldestSegmentIsWhereTheLogStarts() {
        // What discardUpTo leaves: the log starts at the oldest file left, and nothing is missing.
        log.deleteSegment(0);
        for (ReplayPolicy policy : ReplayPolicy.values()) {
            log.walk(policy).assertEndsAt(log.endPosition()).assertHandedOver(log.records(p -> p >= base(1)));
        }
    }

    @Test
    void overlappingSegmentIsSkipped() {
        // Segment 2's header (verifying) claims segment 1's positions: a copied or misnamed file.
        log.setBase(2, base(1));
        for (ReplayPolicy policy : REFUSING) {
            log.walk(policy).assertRefused(OVERLAP, base(2), "segment starts at log position " + base(1)
                    + ", inside positions an earlier segment already holds (up to " + base(2) + ")")
                    .assertHandedOver(log.records(p -> p < base(2)));
        }
        // Skipped whole, so the positions it should have held are a gap before the prepared segment 3,
        // which holds nothing: the log ends at its first frame.
        log.walk(SKIP_CORRUPT)
                .assertEndsAt(base(3) + SegmentDescriptor.SEGMENT_HEADER_LENGTH,
                        new Report(OVERLAP, base(2), "inside positions an earlier segment already holds", "segment skipped"),
                        new Report(GAP, base(2), "log positions " + base(2) + " to " + base(3) + " are missing", "gap skipped"))
                .assertHandedOver(log.records(p -> p < base(2)));
    }

    @Test
    void damagedHeaderOfAFileAfterTheEndIsDamageThatRecoveryDeletes() {
        // The prepared segment 3 follows the end of the log; recovery checks its header before deleting or reusing it.
        log.damageHeader(3);
        log.recover(STRICT).assertRefused(DAMAGED_HEADER, log.endPosition(), "damaged segment header: bad magic");
        for (ReplayPolicy policy : List.of(TOLERATE_TAIL, SKIP_CORRUPT)) {
            log.recover(policy).assertEndsAt(log.endPosition(),
                    new Report(DAMAGED_HEADER, log.endPosition(), "damaged segment header: bad magic", "deleted: it follows the end of the log"));
        }
    }
}
