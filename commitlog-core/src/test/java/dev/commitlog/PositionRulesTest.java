package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.codec.TestCodecs;
import dev.commitlog.config.SyncMode;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * One rule for every method that takes a log position: a negative position, one past the durable
 * position, or one inside a record where a record start is needed is refused with an
 * {@link IllegalArgumentException} that names the position and what is allowed, and the refused
 * call changes nothing. A discard past the durable position is the case that cost acknowledged
 * records: the log remembered it and deleted segments written after it.
 */
class PositionRulesTest {
    private static final int RECORD = 200;

    @TempDir
    Path dir;

    private CommitLog openSmall() throws Exception {
        return CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build(),
                CommitLogOptions.builder().noJmx().build());
    }

    private static List<Long> appendMany(CommitLog log, int from, int count) {
        List<Long> positions = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            byte[] record = payload(i, RECORD);
            positions.add(log.append(record, 0, record.length));
        }
        return positions;
    }

    private static IllegalArgumentException refused(Executable call, String... mentions) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        for (String mention : mentions) {
            assertTrue(e.getMessage().contains(mention), () -> "the message should mention '" + mention + "': " + e.getMessage());
        }
        return e;
    }

    @Test
    void aDiscardPastTheDurablePositionIsRefusedAndCostsNoRecord() throws Exception {
        List<Long> acknowledged = new ArrayList<>();
        try (CommitLog log = openSmall()) {
            acknowledged.addAll(appendMany(log, 0, 10));
            long durable = log.durablePosition();
            long huge = durable + (1L << 32);
            refused(() -> log.discardUpTo(huge), Long.toString(huge), "durable position " + durable);
            refused(() -> log.discardUpTo(2_000_000), "2000000");
            refused(() -> log.discardUpTo(Long.MAX_VALUE), Long.toString(Long.MAX_VALUE));
            refused(() -> log.discardUpTo(-1), "-1", ">= 0");
            acknowledged.addAll(appendMany(log, 10, 1_500)); // several segments complete after the refused discards
            assertTrue(log.durablePosition() > 3L * TestLogs.SMALL_SEGMENT, "the appends span several segments");
        }
        try (CommitLog log = openSmall()) {
            List<Long> replayed = new ArrayList<>();
            log.replay(0, (position, record) -> replayed.add(position));
            assertTrue(acknowledged.equals(replayed), () -> "every acknowledged record replays after refused discards: "
                    + replayed.size() + " of " + acknowledged.size() + " did");
        }
    }

    @Test
    void aDiscardAtOrBelowTheDurablePositionIsAcceptedAnywhereEvenInsideARecord() throws Exception {
        try (CommitLog log = openSmall()) {
            List<Long> positions = appendMany(log, 0, 1_000);
            long middle = positions.get(500) + 3; // inside record 500
            log.discardUpTo(middle);
            List<Long> replayed = new ArrayList<>();
            log.replay(0, (position, record) -> replayed.add(position));
            assertTrue(replayed.contains(positions.get(500)), "the record holding the discard position stays");
            assertEquals(positions.subList(positions.indexOf(replayed.get(0)), positions.size()), replayed,
                    "what stays is a contiguous tail of the log");
            assertTrue(replayed.size() < positions.size(), "whole segments below the position went");
            log.discardUpTo(log.durablePosition()); // everything durable; the segment being written stays
            log.discardUpTo(0); // lower than an earlier discard: nothing to do, not an error
        }
    }

    @Test
    void replayFromANegativePositionOrPastTheDurableOneIsRefused() throws Exception {
        try (CommitLog log = openSmall()) {
            appendMany(log, 0, 10);
            long durable = log.durablePosition();
            RecordHandler ignore = (position, record) -> fail("nothing may be replayed");
            refused(() -> log.replay(-5, ignore), "-5", ">= 0");
            refused(() -> log.replay(durable + 8, ignore), Long.toString(durable + 8), "durable position " + durable);
            refused(() -> log.replayBytes(-5, (position, record) -> fail("nothing may be replayed")), "-5");
            refused(() -> log.replay(-5, TestCodecs.BOUNDED_TEXT, (position, value) -> fail("nothing")), "-5");
            log.replay(durable, ignore); // the end of the log: nothing to replay, not an error
        }
    }

    @Test
    void replayFromInsideARecordIsRefusedAndSaysWhereRecordsStart() throws Exception {
        try (CommitLog log = openSmall()) {
            List<Long> positions = appendMany(log, 0, 400);
            long inside = positions.get(300) + 8;
            List<Long> replayed = new ArrayList<>();
            IllegalArgumentException e = refused(() -> log.replay(inside, (position, record) -> replayed.add(position)),
                    Long.toString(inside), Long.toString(positions.get(300)), Long.toString(positions.get(301)));
            assertTrue(replayed.isEmpty(), "a refused replay hands over nothing: " + e.getMessage());
            long headerOfSecondSegment = firstPositionOfSecondSegment(positions) - 16;
            refused(() -> log.replay(headerOfSecondSegment, (position, record) -> fail("nothing")),
                    Long.toString(headerOfSecondSegment));
            log.replay(positions.get(300), (position, record) -> replayed.add(position));
            assertEquals(positions.subList(300, positions.size()), replayed, "a record start replays from there");
        }
    }

    @Test
    void tailersTakeTheSameRule() throws Exception {
        try (CommitLog log = openSmall()) {
            List<Long> positions = appendMany(log, 0, 400);
            long durable = log.durablePosition();
            long inside = positions.get(200) + 8;
            refused(() -> log.tailer(-1), "-1", ">= 0");
            refused(() -> log.tailer(durable + 8), Long.toString(durable + 8), "durable position " + durable);
            refused(() -> log.tailer(inside), Long.toString(inside), Long.toString(positions.get(200)));
            refused(() -> log.tailer(inside, TestCodecs.BOUNDED_TEXT), Long.toString(inside));
            try (LogTailer tailer = log.tailer(positions.get(200))) {
                List<Long> seen = new ArrayList<>();
                tailer.poll((position, record) -> seen.add(position), 1_000);
                assertEquals(positions.subList(200, positions.size()), seen);
                assertEquals(durable, tailer.position());
            }
            try (LogTailer atEnd = log.tailer(durable)) {
                assertEquals(0, atEnd.poll((position, record) -> fail("nothing is past the end"), 10));
            }
        }
    }

    @Test
    void readAtKeepsItsRefusals() throws Exception {
        try (CommitLog log = openSmall()) {
            List<Long> positions = appendMany(log, 0, 10);
            long durable = log.durablePosition();
            refused(() -> log.readAt(-1), "-1");
            refused(() -> log.readAt(durable), Long.toString(durable));
            refused(() -> log.readAt(positions.get(3) + 8), "inside the frame at log position " + positions.get(3));
        }
    }

    @Test
    void everyOperationOnAClosedLogThrowsTheSameRefusal() throws Exception {
        CommitLog log = openSmall();
        long position = appendMany(log, 0, 3).get(0);
        long durable = log.durablePosition();
        log.close();
        log.close(); // idempotent
        byte[] record = payload(1, RECORD);
        List<Executable> calls = List.of(
                () -> log.append(record, 0, record.length),
                () -> log.append(record, 0, record.length, Ack.DURABLE),
                () -> log.append(ByteBuffer.wrap(record)),
                () -> log.appendAsync(record, 0, record.length),
                () -> log.appendAsync(record, 0, record.length, (at, failure) -> { }),
                () -> log.appendBatch(new byte[][] {record}),
                () -> log.append("seven", TestCodecs.BOUNDED_TEXT),
                () -> log.claim(8, new AppendClaim()),
                () -> log.replay(0, (at, view) -> fail("replayed a closed log")),
                () -> log.replayBytes(0, (at, view) -> fail("replayed a closed log")),
                () -> log.replay(0, TestCodecs.BOUNDED_TEXT, (at, value) -> fail("replayed a closed log")),
                () -> log.tailer(0),
                () -> log.tailer(0, TestCodecs.BOUNDED_TEXT),
                () -> log.readAt(position),
                () -> log.readAt(position, ByteBuffer.allocate(RECORD)),
                () -> log.readAt(position, (at, view) -> fail("read a closed log")),
                () -> log.discardUpTo(0),
                log::sync);
        String expected = "commit log " + dir + " is closed";
        for (int i = 0; i < calls.size(); i++) {
            IllegalStateException e = assertThrows(IllegalStateException.class, calls.get(i), "call " + i);
            assertEquals(expected, e.getMessage(), "call " + i);
        }
        assertEquals(durable, log.durablePosition(), "a closed log still tells its final durable position");
        assertNotNull(log.metrics(), "and its final metrics");
    }

    private static long firstPositionOfSecondSegment(List<Long> positions) {
        for (long position : positions) {
            if (position >= TestLogs.SMALL_SEGMENT) {
                return position;
            }
        }
        throw new AssertionError("the records do not reach a second segment");
    }
}
