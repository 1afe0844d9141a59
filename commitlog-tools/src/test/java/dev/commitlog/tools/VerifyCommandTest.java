package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.CommitLog;
import dev.commitlog.CorruptLogException;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.format.RecordDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerifyCommandTest extends WrittenLogTest {

    @Test
    void aCleanLogExitsZeroAndIsLeftAsItWas() throws Exception {
        Map<String, byte[]> before = TestLog.contents(dir);
        long end = log.position(TestLog.RECORDS - 1) + RecordDescriptor.alignedFrameLength(TestLog.PAYLOAD);
        List<String> expected = List.of("OK: 20 records verified (records at positions " + log.position(0) + " to " + log.position(19)
                + "); the log ends at position " + end + " (just past the last valid record)");
        assertEquals(expected, ToolRun.of("verify", dir).succeeded(ExitCode.OK).outLines());
        assertEquals(expected, ToolRun.of("verify", dir, "--strict").succeeded(ExitCode.OK).outLines());
        assertContentsEqual(before, TestLog.contents(dir));
    }

    @Test
    void aFlippedByteExitsOneWithTheFirstBadPositionAndReason() throws Exception {
        long bad = log.position(3);
        log.flipByteAt(bad + 8 + 17);
        log.flipByteAt(log.position(12) + 30); // a second damage later: only the first is reported
        ToolRun run = ToolRun.of("verify", dir).succeeded(ExitCode.DAMAGED);
        assertTrue(run.outLines().get(0).startsWith("CORRUPT at position " + bad + " (commitlog-00000000000000000000.log, offset " + bad
                + "): checksum mismatch"), run.out());
        assertTrue(run.outLines().get(1).contains("truncate-after " + dir + " " + bad), run.out());
        assertOpenAgrees(ReplayPolicy.TOLERATE_TAIL, bad);
    }

    @Test
    void aTornTailIsANoticeUnderTolerateTailAndDamageUnderStrict() throws Exception {
        long last = log.position(TestLog.RECORDS - 1);
        log.flipByteAt(last + 9);
        ToolRun strict = ToolRun.of("verify", dir, "--strict").succeeded(ExitCode.DAMAGED);
        assertTrue(strict.outLines().get(0).startsWith("TORN TAIL at position " + last + " "), strict.out());
        assertOpenAgrees(ReplayPolicy.STRICT, last);

        ToolRun tolerant = ToolRun.of("verify", dir).succeeded(ExitCode.OK);
        assertEquals(2, tolerant.outLines().size(), tolerant.out());
        assertTrue(tolerant.outLines().get(0).startsWith("OK: 19 records verified"), tolerant.out());
        assertTrue(tolerant.outLines().get(1).startsWith("notice: TORN TAIL at position " + last), tolerant.out());
        assertOpenAgrees(ReplayPolicy.TOLERATE_TAIL, -1); // last: opening cuts the tail off
    }

    @Test
    void aCutSegmentFileExitsOne() throws Exception {
        log.cutFile(log.segment(1), 40_000);
        ToolRun run = ToolRun.of("verify", dir).succeeded(ExitCode.DAMAGED);
        assertTrue(run.outLines().get(0).startsWith("CORRUPT at position " + TestLog.SEGMENT_SIZE + " (commitlog-00000000000000000001.log, offset 0): "
                + "damaged segment header: too short (cut short?): header says 65536 bytes but the file has 40000"), run.out());
        assertOpenAgrees(ReplayPolicy.TOLERATE_TAIL, TestLog.SEGMENT_SIZE);
    }

    @Test
    void aMissingSegmentFileExitsOne() throws Exception {
        Files.delete(log.segment(1));
        ToolRun run = ToolRun.of("verify", dir).succeeded(ExitCode.DAMAGED);
        assertTrue(run.outLines().get(0).startsWith("CORRUPT at position " + TestLog.SEGMENT_SIZE + " (commitlog-00000000000000000002.log, offset 0): "
                + "log positions " + TestLog.SEGMENT_SIZE + " to " + 2 * TestLog.SEGMENT_SIZE + " are missing"), run.out());
        assertOpenAgrees(ReplayPolicy.TOLERATE_TAIL, TestLog.SEGMENT_SIZE);
    }

    /** verify's verdict is the engine's: open under the same policy fails at the same position, or succeeds. */
    private void assertOpenAgrees(ReplayPolicy policy, long badPosition) {
        if (badPosition < 0) {
            assertDoesNotThrow(() -> CommitLog.open(TestLog.config(dir, policy)).close());
            return;
        }
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> CommitLog.open(TestLog.config(dir, policy)).close());
        assertEquals(badPosition, e.position());
    }

    private static void assertContentsEqual(Map<String, byte[]> expected, Map<String, byte[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        expected.forEach((name, bytes) -> assertArrayEquals(bytes, actual.get(name), name + " changed"));
    }
}
