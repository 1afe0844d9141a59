package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.CommitLog;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.format.SegmentDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TruncateAfterCommandTest {
    @TempDir
    Path root;
    private Path dir;
    private Path backup;
    private TestLog log;

    @BeforeEach
    void writeLog() throws Exception {
        dir = root.resolve("commitlog");
        backup = root.resolve("backup");
        log = TestLog.write(dir);
    }

    @Test
    void afterCorruptionCutsAtTheReportedPositionKeepsABackupAndOpensStrict() throws Exception {
        long bad = log.position(11);
        log.flipByteAt(bad + 40);
        ToolRun verify = ToolRun.of("verify", dir).succeeded(ExitCode.DAMAGED);
        assertTrue(verify.out().startsWith("CORRUPT at position " + bad + " "), verify.out());
        Map<String, byte[]> damaged = TestLog.contents(dir);

        ToolRun run = ToolRun.of("truncate-after", dir, bad, "--backup-dir", backup).succeeded(ExitCode.OK);
        String segment1 = SegmentDescriptor.fileName(1);
        assertEquals("truncated " + dir + ": position " + bad + " and everything after it removed; 11 records before it kept", run.outLines().get(0));
        assertTrue(run.out().contains(segment1 + ": zeroed from offset " + (bad - TestLog.SEGMENT_SIZE)), run.out());
        assertTrue(run.out().contains(SegmentDescriptor.fileName(2) + ": moved to " + backup.resolve(SegmentDescriptor.fileName(2))), run.out());

        // The backup holds the cut segment as it was and every later file, byte for byte.
        Map<String, byte[]> backedUp = TestLog.contents(backup);
        assertEquals(List.of(segment1, SegmentDescriptor.fileName(2), SegmentDescriptor.fileName(3)), List.copyOf(backedUp.keySet()));
        backedUp.forEach((name, bytes) -> assertArrayEquals(damaged.get(name), bytes, name));
        // Segment 0 is untouched; segment 1 keeps its bytes before the cut and holds zeros from it on.
        Map<String, byte[]> after = TestLog.contents(dir);
        assertArrayEquals(damaged.get(SegmentDescriptor.fileName(0)), after.get(SegmentDescriptor.fileName(0)));
        int cutOffset = (int) (bad - TestLog.SEGMENT_SIZE);
        byte[] cut = after.get(segment1);
        assertArrayEquals(Arrays.copyOfRange(damaged.get(segment1), 64, cutOffset), Arrays.copyOfRange(cut, 64, cutOffset));
        assertTrue(allZero(Arrays.copyOfRange(cut, cutOffset, cut.length)));

        ToolRun.of("verify", dir, "--strict").succeeded(ExitCode.OK);
        assertEquals(log.positions.subList(0, 11), log.replay(ReplayPolicy.STRICT));
        try (CommitLog reopened = CommitLog.open(TestLog.config(dir, ReplayPolicy.STRICT))) {
            byte[] next = TestLog.payload(11);
            assertEquals(bad, reopened.append(next, 0, next.length), "appends resume at the cut");
        }
    }

    @Test
    void aCleanCutAtARecordInTheFirstSegmentMovesEveryLaterFile() throws Exception {
        long at = log.position(3);
        List<String> before = segmentFiles(dir); // segment 3 exists only if the allocator prepared it
        assertTrue(before.containsAll(List.of(SegmentDescriptor.fileName(0), SegmentDescriptor.fileName(1), SegmentDescriptor.fileName(2))),
                before.toString());
        ToolRun.of("truncate-after", dir, at, "--backup-dir", backup).succeeded(ExitCode.OK);
        assertEquals(List.of(SegmentDescriptor.fileName(0)), segmentFiles(dir), "only the cut segment stays");
        assertEquals(before, segmentFiles(backup), "segment 0's copy, and every later file moved");
        assertEquals(log.positions.subList(0, 3), log.replay(ReplayPolicy.STRICT)); // opening prepares segment 1 again
    }

    @Test
    void aCutAtASegmentBaseKeepsThatSegmentEmptySoPositionsGoOn() throws Exception {
        long base = 2L * TestLog.SEGMENT_SIZE;
        ToolRun run = ToolRun.of("truncate-after", dir, base, "--backup-dir", backup).succeeded(ExitCode.OK);
        long firstFrame = base + SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        assertTrue(run.outLines().get(0).contains("position " + firstFrame + " and everything after it removed; 16 records"), run.out());
        assertEquals(log.positions.subList(0, 16), log.replay(ReplayPolicy.STRICT));
        try (CommitLog reopened = CommitLog.open(TestLog.config(dir, ReplayPolicy.STRICT))) {
            byte[] next = TestLog.payload(16);
            assertEquals(firstFrame, reopened.append(next, 0, next.length));
        }
    }

    @Test
    void aSegmentWithADamagedHeaderGoesWholeWhenCutAtItsBase() throws Exception {
        Map<String, byte[]> original = TestLog.contents(dir);
        log.flipByteAt(TestLog.SEGMENT_SIZE + 20); // segment 1's header: its id
        long base = TestLog.SEGMENT_SIZE;
        ToolRun.of("verify", dir).succeeded(ExitCode.DAMAGED);
        ToolRun run = ToolRun.of("truncate-after", dir, base, "--backup-dir", backup).succeeded(ExitCode.OK);
        assertTrue(run.out().contains(SegmentDescriptor.fileName(1) + ": moved to"), run.out());
        assertArrayEquals(original.get(SegmentDescriptor.fileName(0)), TestLog.contents(dir).get(SegmentDescriptor.fileName(0)));
        assertEquals(log.positions.subList(0, 8), log.replay(ReplayPolicy.STRICT));
        try (CommitLog reopened = CommitLog.open(TestLog.config(dir, ReplayPolicy.STRICT))) {
            byte[] next = TestLog.payload(8);
            assertEquals(base + SegmentDescriptor.SEGMENT_HEADER_LENGTH, reopened.append(next, 0, next.length), "a new segment at the same base");
        }
    }

    @Test
    void aTornTailThatStrictRefusesIsCutSoStrictOpens() throws Exception {
        long last = log.position(TestLog.RECORDS - 1);
        log.flipByteAt(last + 3000);
        ToolRun.of("verify", dir, "--strict").succeeded(ExitCode.DAMAGED);
        ToolRun.of("truncate-after", dir, last, "--backup-dir", backup).succeeded(ExitCode.OK);
        ToolRun.of("verify", dir, "--strict").succeeded(ExitCode.OK);
        assertEquals(log.positions.subList(0, TestLog.RECORDS - 1), log.replay(ReplayPolicy.STRICT));
    }

    @Test
    void aCutAtTheEndOfACleanLogChangesNothing() throws Exception {
        long end = Long.parseLong(ToolRun.of("verify", dir).out().replaceAll("(?s).*the log ends at position (\\d+).*", "$1"));
        // The prepared next segment would go: cut there, then once more at the same place.
        ToolRun.of("truncate-after", dir, end, "--backup-dir", backup).succeeded(ExitCode.OK);
        Map<String, byte[]> before = TestLog.contents(dir);
        ToolRun again = ToolRun.of("truncate-after", dir, end, "--backup-dir", root.resolve("unused")).succeeded(ExitCode.OK);
        assertTrue(again.out().startsWith("nothing to cut: nothing is written at or after position " + end + "; the log ends at position "
                + end + " "), again.out());
        assertFalse(Files.exists(root.resolve("unused")), "no backup directory when nothing is cut");
        assertEqualContents(before, TestLog.contents(dir));
    }

    @Test
    void withoutBackupDirItNamesOneBesideTheLog() throws Exception {
        ToolRun run = ToolRun.of("truncate-after", dir, log.position(18)).succeeded(ExitCode.OK);
        Path made;
        try (Stream<Path> siblings = Files.list(root)) {
            made = siblings.filter(p -> p.getFileName().toString().startsWith("commitlog.truncated-")).findFirst().orElseThrow();
        }
        assertTrue(run.out().contains("backup in " + made), run.out());
        assertTrue(Files.exists(made.resolve(SegmentDescriptor.fileName(2))));
    }

    @Test
    void refusesAPositionWhereNoFrameStartsAndChangesNothing() throws Exception {
        Map<String, byte[]> before = TestLog.contents(dir);
        String line = ToolRun.of("truncate-after", dir, log.position(5) + 8, "--backup-dir", backup).oneErrorLine(ExitCode.FAILED);
        assertEquals("commitlog-tools truncate-after: position " + (log.position(5) + 8) + " is not where a frame starts: reading from the "
                + "start of the log, the first place at or after it where the log can be cut is position " + log.position(6)
                + " (dump shows every record's position)", line);
        line = ToolRun.of("truncate-after", dir, TestLog.SEGMENT_SIZE + 10, "--backup-dir", backup).oneErrorLine(ExitCode.FAILED);
        assertTrue(line.contains("is inside the header of commitlog-00000000000000000001.log"), line);
        line = ToolRun.of("truncate-after", dir, 100L * TestLog.SEGMENT_SIZE, "--backup-dir", backup).oneErrorLine(ExitCode.FAILED);
        assertTrue(line.contains("is in no segment file of the log"), line);
        assertEqualContents(before, TestLog.contents(dir));
        assertFalse(Files.exists(backup));
    }

    @Test
    void refusesToCutAfterDamageAndNamesIt() throws Exception {
        long bad = log.position(2);
        log.flipByteAt(bad + 8);
        Map<String, byte[]> before = TestLog.contents(dir);
        String line = ToolRun.of("truncate-after", dir, log.position(12), "--backup-dir", backup).oneErrorLine(ExitCode.FAILED);
        assertTrue(line.startsWith("commitlog-tools truncate-after: the log is damaged before position " + log.position(12) + ": checksum mismatch"), line);
        assertTrue(line.endsWith("cut at " + bad + " or before it"), line);
        assertEqualContents(before, TestLog.contents(dir));
    }

    @Test
    void refusesWhileTheLogIsOpen() throws Exception {
        try (CommitLog open = CommitLog.open(TestLog.config(dir, ReplayPolicy.TOLERATE_TAIL))) {
            Map<String, byte[]> before = TestLog.contents(dir);
            String line = ToolRun.of("truncate-after", dir, log.position(5), "--backup-dir", backup).oneErrorLine(ExitCode.FAILED);
            assertTrue(line.startsWith("commitlog-tools truncate-after: refused, nothing changed: commit log directory " + dir + " is already open"), line);
            // The open log's allocator may be preparing the next segment meanwhile: compare the files that hold records.
            Map<String, byte[]> after = TestLog.contents(dir);
            for (long id = 0; id <= 2; id++) {
                String name = SegmentDescriptor.fileName(id);
                assertNotNull(before.get(name), name);
                assertArrayEquals(before.get(name), after.get(name), name);
            }
            assertFalse(Files.exists(backup));
            assertNotNull(open);
        }
        assertEquals(log.positions, log.replay(ReplayPolicy.STRICT));
    }

    @Test
    void refusesANonEmptyBackupDirectory() throws Exception {
        Files.createDirectories(backup);
        Files.writeString(backup.resolve("precious"), "x");
        String line = ToolRun.of("truncate-after", dir, log.position(5), "--backup-dir", backup).oneErrorLine(ExitCode.FAILED);
        assertEquals("commitlog-tools truncate-after: the backup directory " + backup + " is not empty", line);
        assertEquals(log.positions, log.replay(ReplayPolicy.STRICT));
    }

    private static boolean allZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static void assertEqualContents(Map<String, byte[]> expected, Map<String, byte[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        expected.forEach((name, bytes) -> assertArrayEquals(bytes, actual.get(name), name + " changed"));
    }

    private static List<String> segmentFiles(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> SegmentDescriptor.parseId(name) >= 0)
                    .sorted()
                    .toList();
        }
    }
}
