package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.disk.ChronicleJvmFlags;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar as an operator runs it ({@code java -jar}; the manifest carries the openings and
 * exports, and from JDK 23 the command line adds the memory-access flag of the JDK's block), with
 * nothing on stderr: no library banner, no JVM warning. Runs after {@code package}, under failsafe.
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

    /** The manifest carries the openings and exports of the block (ChronicleJvmFlags), and no native access: nothing here needs it. */
    @Test
    void theManifestCarriesTheBlock() throws Exception {
        try (JarFile jar = new JarFile(jar().toFile())) {
            Attributes attributes = jar.getManifest().getMainAttributes();
            assertEquals(ChronicleJvmFlags.manifestAddOpens(), attributes.getValue("Add-Opens"));
            assertEquals(ChronicleJvmFlags.manifestAddExports(), attributes.getValue("Add-Exports"));
            assertNull(attributes.getValue("Enable-Native-Access"));
        }
    }

    /** The flags of this JDK's block that a manifest cannot carry (JDK 23 and later: the memory-access one). */
    static List<String> commandLineFlags() {
        List<String> flags = new ArrayList<>(ChronicleJvmFlags.block());
        flags.removeAll(ChronicleJvmFlags.required());
        return flags;
    }

    private static Path jar() {
        Path jar = Path.of(System.getProperty("commitlog.tools.jar", "target/commitlog-tools.jar"));
        assertTrue(Files.isRegularFile(jar), "the shaded jar is built by package: " + jar);
        return jar;
    }

    private static Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(commandLineFlags());
        command.add("-jar");
        command.add(jar().toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the tool exits");
        return new Result(process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}
