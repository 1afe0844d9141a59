package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input of every kind: one line on stderr, the right exit code, no stack trace. */
class ToolsMainTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"dump", "verify", "stats", "truncate-after"})
    void everyCommandHasHelp(String command) {
        ToolRun run = ToolRun.of(command, "--help").succeeded(ExitCode.OK);
        assertTrue(run.out().startsWith("Usage: commitlog-tools " + command + " "), run.out());
        assertTrue(run.out().contains("DIR"), run.out());
    }

    @Test
    void topLevelHelpListsTheCommands() {
        ToolRun run = ToolRun.of("--help").succeeded(ExitCode.OK);
        for (String command : new String[] {"dump", "verify", "stats", "truncate-after"}) {
            assertTrue(run.out().contains("  " + command + " "), run.out());
        }
    }

    @Test
    void anUnknownCommandIsOneLine() {
        assertEquals("commitlog-tools: unknown command 'frobnicate' (commands: dump, verify, stats, truncate-after) (see 'commitlog-tools --help')",
                ToolRun.of("frobnicate", dir).oneErrorLine(ExitCode.USAGE));
        assertTrue(ToolRun.of("verfy", dir).oneErrorLine(ExitCode.USAGE).startsWith("commitlog-tools: unknown command 'verfy'"));
    }

    @Test
    void noCommandIsOneLine() {
        assertTrue(ToolRun.of().oneErrorLine(ExitCode.USAGE).startsWith("commitlog-tools: missing command"));
    }

    @Test
    void badArgumentsAreOneLine() throws Exception {
        TestLog.write(dir);
        assertEquals("commitlog-tools dump: Unknown option: '--frm'; did you mean --from? (see 'commitlog-tools dump --help')",
                ToolRun.of("dump", dir, "--frm").oneErrorLine(ExitCode.USAGE));
        assertTrue(ToolRun.of("dump", dir, "--limit", "ten").oneErrorLine(ExitCode.USAGE).contains("'ten' is not a long"));
        assertTrue(ToolRun.of("truncate-after", dir).oneErrorLine(ExitCode.USAGE).contains("Missing required parameter: 'POSITION'"));
        assertTrue(ToolRun.of("truncate-after", dir, "-5").oneErrorLine(ExitCode.USAGE).contains("POSITION must be a log position"));
        assertTrue(ToolRun.of("verify").oneErrorLine(ExitCode.USAGE).contains("Missing required parameter: 'DIR'"));
        assertTrue(ToolRun.of("stats", dir, "extra").oneErrorLine(ExitCode.USAGE).contains("'extra'"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dump", "verify", "stats", "truncate-after"})
    void aMissingOrWrongDirectoryIsOneLine(String command) throws Exception {
        Path missing = dir.resolve("nope");
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        String[] position = command.equals("truncate-after") ? new String[] {"64"} : new String[0];
        assertEquals("commitlog-tools " + command + ": directory " + missing + " does not exist (see 'commitlog-tools " + command + " --help')",
                run(command, missing, position).oneErrorLine(ExitCode.USAGE));
        assertTrue(run(command, file, position).oneErrorLine(ExitCode.USAGE).contains(file + " is not a directory"));
        assertTrue(run(command, empty, position).oneErrorLine(ExitCode.USAGE).contains("holds no commit log segment files"));
        assertFalse(Files.exists(empty.resolve("commitlog.lock")), "nothing is created in a directory that is not a log");
    }

    @Test
    void aSegmentFileThatCannotBeReadIsOneLine() throws Exception {
        TestLog log = TestLog.write(dir);
        log.cutFile(log.segment(1), 3L << 30); // sparse: larger than any segment can be, so mapping it is refused
        for (String command : new String[] {"dump", "verify", "stats"}) {
            String line = ToolRun.of(command, dir).oneErrorLine(ExitCode.FAILED);
            assertEquals("commitlog-tools " + command + ": " + log.segment(1) + " is 3221225472 bytes; segments are at most 2 GiB", line);
        }
    }

    private static ToolRun run(String command, Path directory, String... more) {
        Object[] args = new Object[2 + more.length];
        args[0] = command;
        args[1] = directory;
        System.arraycopy(more, 0, args, 2, more.length);
        return ToolRun.of(args);
    }
}
