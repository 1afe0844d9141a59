package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.format.RecordDescriptor;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class DumpCommandTest extends WrittenLogTest {
    private static final Pattern RECORD = Pattern.compile("position (\\d+)  length (\\d+)  frame (\\d+)  checksum ok");


    @Test
    void printsEveryRecordAtThePositionAppendReturnedWithItsLength() throws Exception {
        ToolRun run = ToolRun.of("dump", dir).succeeded(ExitCode.OK);
        List<Long> shown = recordPositions(run);
        assertEquals(log.positions, shown);
        for (String line : run.outLines()) {
            Matcher m = RECORD.matcher(line);
            if (m.matches()) {
                assertEquals(TestLog.PAYLOAD, Integer.parseInt(m.group(2)), line);
                assertEquals(RecordDescriptor.alignedFrameLength(TestLog.PAYLOAD), Integer.parseInt(m.group(3)), line);
            }
        }
        assertEquals(3, run.outLines().stream().filter(l -> l.startsWith("segment commitlog-")).count(), run.out());
        long end = log.position(TestLog.RECORDS - 1) + RecordDescriptor.alignedFrameLength(TestLog.PAYLOAD);
        assertEquals("end of log at position " + end + ": 20 records shown, 0 damaged frames met", last(run));
    }

    @Test
    void fromAndLimitSelectTheRecords() throws Exception {
        ToolRun run = ToolRun.of("dump", dir, "--from", log.position(9), "--limit", 3).succeeded(ExitCode.OK);
        assertEquals(log.positions.subList(9, 12), recordPositions(run));
        assertEquals("stopped after 3 records (--limit 3)", last(run));

        // A position inside a record starts at the next one.
        run = ToolRun.of("dump", dir, "--from", log.position(9) + 1, "--limit", 1).succeeded(ExitCode.OK);
        assertEquals(List.of(log.position(10)), recordPositions(run));
    }

    @Test
    void hexPrintsThePayload() throws Exception {
        ToolRun run = ToolRun.of("dump", dir, "--from", log.position(5), "--limit", 1, "--hex").succeeded(ExitCode.OK);
        byte[] payload = TestLog.payload(5);
        String firstHexLine = run.outLines().stream().filter(l -> l.startsWith("    00000000")).findFirst().orElseThrow();
        StringBuilder expected = new StringBuilder("    00000000 ");
        for (int i = 0; i < 16; i++) {
            expected.append(i == 8 ? "  " : " ").append(String.format("%02x", payload[i]));
        }
        assertTrue(firstHexLine.startsWith(expected.toString()), firstHexLine + "\nexpected " + expected);
        long hexLines = run.outLines().stream().filter(l -> l.startsWith("    ")).count();
        assertEquals((TestLog.PAYLOAD + 15) / 16, hexLines);
    }

    @Test
    void showsCorruptionWithPositionAndReasonAndGoesOn() throws Exception {
        long damaged = log.position(4);
        log.flipByteAt(damaged + 100);
        ToolRun run = ToolRun.of("dump", dir).succeeded(ExitCode.OK);
        String damage = run.outLines().stream().filter(l -> l.startsWith("DAMAGE")).findFirst().orElseThrow(() -> new AssertionError(run.out()));
        assertTrue(damage.startsWith("DAMAGE at position " + damaged + " (commitlog-00000000000000000000.log, offset " + damaged + "): checksum mismatch"),
                damage);
        List<Long> expected = new java.util.ArrayList<>(log.positions);
        expected.remove(4);
        assertEquals(expected, recordPositions(run), "every other record is still shown");
        assertTrue(last(run).endsWith("19 records shown, 1 damaged frames met"), last(run));
    }

    @Test
    void showsATornTailAsTheEndOfTheLog() throws Exception {
        long last = log.position(TestLog.RECORDS - 1);
        log.flipByteAt(last + 50);
        ToolRun run = ToolRun.of("dump", dir).succeeded(ExitCode.OK);
        String torn = run.outLines().get(run.outLines().size() - 2);
        assertTrue(torn.startsWith("TORN TAIL at position " + last + " (commitlog-00000000000000000002.log, offset " + (last % TestLog.SEGMENT_SIZE)
                + "): torn tail: checksum mismatch"), torn);
        assertEquals("end of log at position " + last + ": 19 records shown, 1 damaged frames met", last(run));
    }

    @Test
    void showsACutFileAsADamagedHeaderAndGoesOn() throws Exception {
        log.cutFile(log.segment(1), 30_000);
        ToolRun run = ToolRun.of("dump", dir).succeeded(ExitCode.OK);
        String damage = run.outLines().stream().filter(l -> l.startsWith("DAMAGE")).findFirst().orElseThrow(() -> new AssertionError(run.out()));
        assertTrue(damage.contains("commitlog-00000000000000000001.log") && damage.contains("damaged segment header: too short (cut short?): header says 65536 bytes but the file has 30000"),
                damage);
        List<Long> shown = recordPositions(run);
        assertEquals(log.positions.subList(0, 8), shown.subList(0, 8));
        assertEquals(log.positions.subList(16, 20), shown.subList(8, shown.size()), "segment 2 is read after the damaged one");
    }

    @Test
    void refusesANegativeFromAndAZeroLimit() {
        assertTrue(ToolRun.of("dump", dir, "--from", -1).oneErrorLine(ExitCode.USAGE).contains("--from must be a log position"));
        assertTrue(ToolRun.of("dump", dir, "--limit", 0).oneErrorLine(ExitCode.USAGE).contains("--limit must be at least 1"));
    }

    private static List<Long> recordPositions(ToolRun run) {
        return run.outLines().stream().map(RECORD::matcher).filter(Matcher::matches).map(m -> Long.parseLong(m.group(1))).toList();
    }

    private static String last(ToolRun run) {
        List<String> lines = run.outLines();
        return lines.get(lines.size() - 1);
    }
}
