package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.AppendClaim;
import dev.commitlog.CommitLog;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.format.RecordDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One end of the log in every command: the position just past the last valid record ({@link LogSpan}),
 * also where the bytes after it hold no record (an aborted claim, a roll into a new segment), and
 * {@code dump --from} outside the log refused with both bounds.
 */
class LogEndTest {
    private static final Pattern DUMP_END = Pattern.compile("end of log at position (\\d+): .*");
    private static final Pattern STATS_END = Pattern.compile("end of log {7}(\\d+) \\(just past the last valid record\\)");
    private static final Pattern VERIFY_END = Pattern.compile("OK: .*; the log ends at position (\\d+) \\(just past the last valid record\\)");

    @TempDir
    Path root;
    private Path dir;

    @BeforeEach
    void directory() {
        dir = root.resolve("commitlog");
    }

    @Test
    void everyCommandPrintsTheSameEnd() throws Exception {
        TestLog log = TestLog.write(dir);
        long end = endOfLast(log.position(TestLog.RECORDS - 1), TestLog.PAYLOAD);
        assertEnds(end);

        // The first cut at the end moves the prepared next segment aside; the second has nothing to do.
        ToolRun.of("truncate-after", dir, end, "--backup-dir", root.resolve("backup")).succeeded(ExitCode.OK);
        String nothingToCut = ToolRun.of("truncate-after", dir, end, "--backup-dir", root.resolve("unused")).succeeded(ExitCode.OK)
                .outLines().get(0);
        assertEquals("nothing to cut: nothing is written at or after position " + end + "; the log ends at position " + end
                + " (just past the last valid record), 20 records; nothing changed", nothingToCut);
    }

    @Test
    void anAbortedClaimAfterTheLastRecordIsNotPartOfTheEnd() throws Exception {
        List<Long> positions = new ArrayList<>();
        try (CommitLog log = CommitLog.open(TestLog.config(dir, ReplayPolicy.TOLERATE_TAIL))) {
            for (int i = 0; i < 10; i++) {
                positions.add(log.append(TestLog.payload(i), 0, 1000));
            }
            AppendClaim claim = new AppendClaim();
            log.claim(500, claim);
            claim.abort(); // an aborted frame after the last record: recovery passes it, it holds no record
        }
        long end = endOfLast(positions.get(9), 1000);
        String verify = ToolRun.of("verify", dir).succeeded(ExitCode.OK).outLines().get(0);
        assertEquals(end, group(VERIFY_END, verify), verify);
        assertEnds(end);
    }

    @Test
    void aRollIntoANewSegmentWithNoRecordIsNotPartOfTheEnd() throws Exception {
        List<Long> positions = new ArrayList<>();
        try (CommitLog log = CommitLog.open(TestLog.config(dir, ReplayPolicy.TOLERATE_TAIL))) {
            for (int i = 0; i < TestLog.PER_SEGMENT; i++) {
                positions.add(log.append(TestLog.payload(i), 0, TestLog.PAYLOAD));
            }
            AppendClaim claim = new AppendClaim();
            log.claim(TestLog.PAYLOAD, claim); // does not fit in segment 0: the writer rolls into segment 1
            claim.abort();
        }
        long end = endOfLast(positions.get(TestLog.PER_SEGMENT - 1), TestLog.PAYLOAD);
        assertTrue(end < TestLog.SEGMENT_SIZE, "the last record is in segment 0");
        assertEnds(end);
    }

    @Test
    void dumpFromPastTheEndSaysSoWithTheBounds() throws Exception {
        TestLog log = TestLog.write(dir);
        long end = endOfLast(log.position(TestLog.RECORDS - 1), TestLog.PAYLOAD);
        String bounds = "the log holds positions 0 (its start) to " + end + " (its end: just past its last valid record)";
        assertEquals("commitlog-tools dump: --from 999999999 is past the end of the log: " + bounds + "; nothing is there to dump"
                        + " (see 'commitlog-tools dump --help')",
                ToolRun.of("dump", dir, "--from", 999_999_999L).oneErrorLine(ExitCode.USAGE));
        // Inside the segment prepared after the tail, and just past the end: past the end too.
        for (long past : new long[] {3L * TestLog.SEGMENT_SIZE + 100, end + 1}) {
            assertTrue(ToolRun.of("dump", dir, "--from", past).oneErrorLine(ExitCode.USAGE)
                    .startsWith("commitlog-tools dump: --from " + past + " is past the end of the log: " + bounds), "--from " + past);
        }
        // At the end exactly: nothing after it yet (a live log's next record goes there).
        List<String> atEnd = ToolRun.of("dump", dir, "--from", end).succeeded(ExitCode.OK).outLines();
        assertEquals("end of log at position " + end + ": 0 records shown, 0 damaged frames met", atEnd.get(atEnd.size() - 1));
    }

    @Test
    void dumpFromBelowTheStartSaysSoWithTheBounds() throws Exception {
        TestLog log = TestLog.write(dir);
        Files.delete(log.segment(0)); // as a discard leaves it: the log starts at segment 1
        long end = endOfLast(log.position(TestLog.RECORDS - 1), TestLog.PAYLOAD);
        String line = ToolRun.of("dump", dir, "--from", 100).oneErrorLine(ExitCode.USAGE);
        assertEquals("commitlog-tools dump: --from 100 is below the start of the log: the log holds positions " + TestLog.SEGMENT_SIZE
                + " (its start) to " + end + " (its end: just past its last valid record); positions below " + TestLog.SEGMENT_SIZE
                + " were discarded. Leave --from out to dump from the oldest record (see 'commitlog-tools dump --help')", line);

        List<String> all = ToolRun.of("dump", dir).succeeded(ExitCode.OK).outLines();
        assertTrue(all.contains("position " + log.position(TestLog.PER_SEGMENT) + "  length " + TestLog.PAYLOAD + "  frame "
                + RecordDescriptor.alignedFrameLength(TestLog.PAYLOAD) + "  checksum ok"), "without --from: from the oldest record");
        assertEquals("end of log at position " + end + ": 12 records shown, 0 damaged frames met", all.get(all.size() - 1));
        ToolRun.of("dump", dir, "--from", TestLog.SEGMENT_SIZE).succeeded(ExitCode.OK); // the start itself is in the log
    }

    /** stats, verify and dump (whole, and from the last record) all print {@code end}. */
    private void assertEnds(long end) {
        List<String> stats = ToolRun.of("stats", dir).succeeded(ExitCode.OK).outLines();
        String statsEnd = stats.stream().filter(l -> l.startsWith("end of log")).findFirst().orElseThrow();
        assertEquals(end, group(STATS_END, statsEnd), statsEnd);

        String verify = ToolRun.of("verify", dir).succeeded(ExitCode.OK).outLines().get(0);
        assertEquals(end, group(VERIFY_END, verify), verify);

        List<String> dump = ToolRun.of("dump", dir).succeeded(ExitCode.OK).outLines();
        assertEquals(end, group(DUMP_END, dump.get(dump.size() - 1)), dump.get(dump.size() - 1));
    }

    private static long endOfLast(long lastPosition, int payloadLength) {
        return lastPosition + RecordDescriptor.alignedFrameLength(payloadLength);
    }

    private static long group(Pattern pattern, String line) {
        Matcher m = pattern.matcher(line);
        assertTrue(m.matches(), line + " does not match " + pattern);
        return Long.parseLong(m.group(1));
    }
}
