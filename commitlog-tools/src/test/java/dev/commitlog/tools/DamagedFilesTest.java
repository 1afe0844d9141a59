package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.CorruptLogException;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.disk.DirectoryLock;
import dev.commitlog.format.SegmentDescriptor;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged or stray files in a log directory, as a black-box run met them: each is named for what it
 * is, the way forward verify prints works, and refusals leave the directory as they found it.
 */
class DamagedFilesTest extends WrittenLogTest {
    private static final Pattern TRUNCATE = Pattern.compile("truncate-after (\\S+) (\\d+)");

    @TempDir
    Path aside;

    @Test
    void everyHeaderDamagedVerifyAdvisesACutThatWorks() throws Exception {
        List<Path> segments = segmentFiles();
        for (Path segment : segments) {
            try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
                file.write(0x55); // the magic's first byte
            }
        }
        ToolRun verify = ToolRun.of("verify", dir).succeeded(ExitCode.DAMAGED);
        String advice = verify.outLines().get(1);
        assertTrue(advice.contains("or move " + segments.get(0).getFileName() + " alone out of " + dir), advice);
        Matcher command = TRUNCATE.matcher(advice);
        assertTrue(command.find(), advice);
        ToolRun cut = ToolRun.of("truncate-after", command.group(1), command.group(2)).succeeded(ExitCode.OK);
        assertTrue(cut.out().contains("moved to"), cut.out());
        assertEquals(List.of(), segmentFiles(), "every unreadable file moved into the backup");
        assertEquals(List.of(), log.replay(ReplayPolicy.STRICT), "the log opens, empty, under strict");
    }

    @Test
    void movingADamagedFirstFileAsideAsVerifySaysKeepsTheRest() throws Exception {
        Path first = segmentFiles().get(0);
        try (RandomAccessFile file = new RandomAccessFile(first.toFile(), "rw")) {
            file.write(0x55);
        }
        ToolRun verify = ToolRun.of("verify", dir).succeeded(ExitCode.DAMAGED);
        assertTrue(verify.outLines().get(1).contains("or move " + first.getFileName() + " alone out of"), verify.out());
        Files.move(first, aside.resolve(first.getFileName()));
        ToolRun.of("verify", dir).succeeded(ExitCode.OK);
        assertEquals(log.positions.subList(TestLog.PER_SEGMENT, TestLog.RECORDS), log.replay(ReplayPolicy.TOLERATE_TAIL));
    }

    @Test
    void aRefusedTruncateLeavesNoLockFileBehind() throws Exception {
        Files.delete(dir.resolve(DirectoryLock.LOCK_FILE)); // a log copied without its lock file
        Map<String, byte[]> before = TestLog.contents(dir);
        ToolRun.of("truncate-after", dir, log.position(3) + 1).oneErrorLine(ExitCode.FAILED);
        assertFalse(Files.exists(dir.resolve(DirectoryLock.LOCK_FILE)));
        assertEquals(before.keySet(), TestLog.contents(dir).keySet());
    }

    @Test
    void aDirectoryNamedLikeASegmentFailsVerifyByName() throws Exception {
        Path stray = Files.createDirectory(dir.resolve(SegmentDescriptor.fileName(9)));
        String error = ToolRun.of("verify", dir).oneErrorLine(ExitCode.FAILED);
        assertTrue(error.contains(stray + ": named like a segment file but not a regular file"), error);
        Exception open = assertThrows(Exception.class, () -> CommitLog.open(TestLog.config(dir, ReplayPolicy.TOLERATE_TAIL)).close());
        assertTrue(open.getMessage().contains(stray + ": named like a segment file but not a regular file"), open.getMessage());
    }

    @Test
    void aHundredByteSegmentIsTooShortNotBadMagic() throws Exception {
        Path empty = Files.createDirectory(dir.resolve("other"));
        Files.write(empty.resolve(SegmentDescriptor.fileName(0)), new byte[100]);
        ToolRun verify = ToolRun.of("verify", empty).succeeded(ExitCode.DAMAGED);
        assertTrue(verify.outLines().get(0).contains("damaged segment header: too short: the file is 100 bytes"), verify.out());
    }

    /**
     * A copy of a segment under another segment's name, after the end of the log: docs/format.md calls
     * the id mismatch damage, so strict refuses (verify --strict agrees) and the others report it.
     */
    @Test
    void aHeaderIdThatDisagreesWithTheFileNameIsDamage() throws Exception {
        List<Path> segments = segmentFiles();
        Path misnamed = dir.resolve(SegmentDescriptor.fileName(7));
        Files.copy(segments.get(segments.size() - 1), misnamed);
        Map<String, byte[]> before = TestLog.contents(dir);

        ToolRun strict = ToolRun.of("verify", dir, "--strict").succeeded(ExitCode.DAMAGED);
        assertTrue(strict.outLines().get(0).contains("header says segment id"), strict.out());
        CorruptLogException refused = assertThrows(CorruptLogException.class,
                () -> CommitLog.open(TestLog.config(dir, ReplayPolicy.STRICT)).close());
        assertEquals(misnamed, refused.file());
        assertTrue(refused.reason().contains("but the file name says 7"), refused.reason());
        assertEquals(before.keySet(), TestLog.contents(dir).keySet(), "nothing deleted");

        ToolRun tolerant = ToolRun.of("verify", dir).succeeded(ExitCode.OK);
        assertTrue(tolerant.out().contains("DAMAGE AFTER THE END in " + misnamed.getFileName()), tolerant.out());
        List<String> reports = new ArrayList<>();
        CommitLogOptions options = CommitLogOptions.builder().noJmx()
                .corruptionListener((file, offset, position, reason, action) -> reports.add(file + ": " + reason + "; " + action)).build();
        CommitLog.open(TestLog.config(dir, ReplayPolicy.TOLERATE_TAIL), options).close();
        assertEquals(1, reports.size(), reports.toString());
        assertTrue(reports.get(0).startsWith(misnamed + ": damaged segment header: header says segment id"), reports.toString());
        assertFalse(Files.exists(misnamed));
    }

    private List<Path> segmentFiles() throws Exception {
        try (var files = Files.list(dir)) {
            return files.filter(f -> SegmentDescriptor.parseId(f.getFileName().toString()) >= 0).sorted().toList();
        }
    }
}
