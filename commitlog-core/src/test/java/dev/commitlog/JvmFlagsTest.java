package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.disk.ChronicleJvmFlags;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a log in a JVM without the flags Chronicle Bytes needs fails at once, before the
 * directory is touched, with one message naming each missing flag; with them, it opens.
 */
class JvmFlagsTest {
    @TempDir
    Path dir;

    @Test
    void thisJvmHasEveryFlag() {
        assertEquals(List.of(), ChronicleJvmFlags.missing());
    }

    @Test
    void withoutAnyFlagOpenFailsBeforeCreatingTheDirectoryAndNamesEveryFlag() throws Exception {
        Path logDir = dir.resolve("log");
        String output = run(List.of(), logDir);
        assertTrue(output.startsWith("failed: java.lang.IllegalStateException: the commit log needs JVM flags"), output);
        for (String flag : List.of("--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED")) {
            assertTrue(output.contains(flag), flag + " not named in: " + output);
        }
        assertFalse(Files.exists(logDir), "the directory was created: " + output);
    }

    @Test
    void anExistingDirectoryIsLeftEmpty() throws Exception {
        String output = run(List.of(), dir);
        assertTrue(output.startsWith("failed: java.lang.IllegalStateException"), output);
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "no segment, no commitlog.lock");
        }
    }

    /** Each flag is checked on its own: leave one out and the message names that one alone. */
    @Test
    void oneMissingFlagIsNamedAlone() throws Exception {
        String left = "--add-opens=java.base/java.nio=ALL-UNNAMED";
        List<String> flags = new ArrayList<>(ChildJvm.jvmFlags());
        assertTrue(flags.remove(left), "surefire's flags carry " + left);
        String output = run(flags, dir.resolve("log"));
        assertTrue(output.endsWith("(see README, \"JVM flags\"): " + left), output);
        assertFalse(Files.exists(dir.resolve("log")));
    }

    @Test
    void withTheFlagsAChildOpensTheLog() throws Exception {
        assertEquals("opened", run(ChildJvm.jvmFlags(), dir.resolve("log")));
    }

    private static String run(List<String> flags, Path logDir) throws IOException, InterruptedException {
        Process child = ChildJvm.start(ChildJvm.command(flags, OpenChild.class, logDir.toString()));
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child did not finish");
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        // Only the child's own line: a JVM without the flags may print warnings before it.
        return output.lines().filter(line -> line.startsWith("failed: ") || line.equals("opened")).findFirst()
                .orElse("no result line in: " + output);
    }
}
