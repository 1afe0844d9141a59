package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.format.RecordDescriptor;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatsCommandTest extends WrittenLogTest {

    @Test
    void countsSegmentsBytesRecordsPositionsAndMarks() {
        ToolRun run = ToolRun.of("stats", dir).succeeded(ExitCode.OK);
        List<String> lines = run.outLines();
        long end = log.position(TestLog.RECORDS - 1) + RecordDescriptor.alignedFrameLength(TestLog.PAYLOAD);
        // Segments 0-2 hold records; 3 is the next segment, prepared empty by the allocator.
        assertEquals("segment files    4, " + 4 * TestLog.SEGMENT_SIZE + " bytes", lines.get(1), run.out());
        assertTrue(lines.get(2).matches("  commitlog-00000000000000000000.log  id 0  base 0  size 65536  durable mark \\d+  records 8"), lines.get(2));
        assertTrue(lines.get(3).matches("  commitlog-00000000000000000001.log  id 1  base 65536  size 65536  durable mark \\d+  records 8"), lines.get(3));
        assertTrue(lines.get(4).startsWith("  commitlog-00000000000000000002.log  id 2  base 131072  size 65536  durable mark " + log.position(19)
                + "  records 4"), lines.get(4));
        assertTrue(lines.get(5).startsWith("  commitlog-00000000000000000003.log  id 3  base 196608  size 65536  durable mark 0  records 0  (after the end"),
                lines.get(5));
        assertEquals("records          20", lines.get(6));
        assertEquals("oldest position  " + log.position(0) + " (the first record)", lines.get(7));
        assertEquals("newest position  " + log.position(19) + " (the last record)", lines.get(8));
        assertEquals("end of log       " + end + " (just past the last valid record)", lines.get(9));
        assertTrue(lines.get(10).startsWith("durable mark     " + log.position(19) + " (highest"), lines.get(10));
        assertEquals("damaged frames   0", lines.get(11));
    }

    @Test
    void countsDamageWithoutStopping() throws Exception {
        log.flipByteAt(log.position(10) + 4);
        log.cutFile(log.segment(2), 100);
        ToolRun run = ToolRun.of("stats", dir).succeeded(ExitCode.OK);
        List<String> lines = run.outLines();
        assertTrue(lines.get(4).startsWith("  commitlog-00000000000000000002.log  100 bytes  HEADER DAMAGED: too short (cut short?): header says 65536 bytes"), lines.get(4));
        assertEquals("records          15", lines.get(6), run.out());
        // Three reports: the bad record, the bad header, and the gap that file leaves before segment 3.
        assertEquals("damaged frames   3 (run dump or verify to see them)", lines.get(11));
    }
}
