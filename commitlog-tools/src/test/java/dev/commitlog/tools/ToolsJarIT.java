package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar as an operator runs it ({@code java -jar}, no other flags: the manifest carries
 * the Chronicle ones). Runs after {@code package}, under failsafe.
 */
class ToolsJarIT {
    @TempDir
    Path root;

    record Result(int exitCode, String out, String err) {
    }

    @Test
    void theJarVerifiesCutsAndRefusesAsInProcess() throws Exception {
        Path dir = root.resolve("log");
        TestLog log = TestLog.write(dir);

        Result clean = run("verify", dir.toString());
        assertEquals(0, clean.exitCode(), clean.err());
        assertTrue(clean.out().startsWith("OK: 20 records verified"), clean.out());
        assertEquals("", clean.err(), "nothing on stderr: no library banner, no JVM warning");

        long bad = log.position(7);
        log.flipByteAt(bad + 12);
        Result damaged = run("verify", dir.toString());
        assertEquals(1, damaged.exitCode(), damaged.err());
        assertTrue(damaged.out().startsWith("CORRUPT at position " + bad + " "), damaged.out());

        Result cut = run("truncate-after", dir.toString(), Long.toString(bad), "--backup-dir", root.resolve("backup").toString());
        assertEquals(0, cut.exitCode(), cut.err());
        assertEquals(0, run("verify", "--strict", dir.toString()).exitCode());

        Result unknown = run("frobnicate");
        assertEquals(2, unknown.exitCode());
        assertEquals(List.of("commitlog-tools: unknown command 'frobnicate' (commands: dump, verify, stats, truncate-after) "
                + "(see 'commitlog-tools --help')"), unknown.err().lines().toList());
    }

    private static Result run(String... args) throws IOException, InterruptedException {
        Path jar = Path.of(System.getProperty("commitlog.tools.jar", "target/commitlog-tools.jar"));
        assertTrue(Files.isRegularFile(jar), "the shaded jar is built by package: " + jar);
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        if (Runtime.version().feature() >= 23) {
            // JDK 23+ warns once per JVM when sun.misc.Unsafe's memory methods are used (Chronicle unmaps
            // segments with one); docs/operations.md tells operators to pass this flag there.
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the tool exits");
        return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}
