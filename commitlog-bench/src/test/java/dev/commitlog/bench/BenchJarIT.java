package dev.commitlog.bench;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.disk.ChronicleJvmFlags;
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
 * The shaded jar as a user runs it ({@code java -jar}, plus, from JDK 23, the memory-access flag of
 * the JDK's block, which no manifest can carry): a tiny sweep over a commit-log mode and the
 * Chronicle Queue and RocksDB peers runs to the end in a JVM without JUnit (where Chronicle probes
 * its POSIX binding), loads every class it needs from the jar, and prints no JVM warning.
 * Runs after {@code package}, under failsafe.
 */
class BenchJarIT {
    @TempDir
    Path tmp;

    @Test
    void theManifestCarriesTheBlockAndWhatTheBenchAdds() throws Exception {
        try (JarFile jar = new JarFile(jar().toFile())) {
            Attributes attributes = jar.getManifest().getMainAttributes();
            assertEquals(ChronicleJvmFlags.manifestAddOpens() + " jdk.compiler/com.sun.tools.javac", attributes.getValue("Add-Opens"));
            assertEquals(ChronicleJvmFlags.manifestAddExports() + " jdk.compiler/com.sun.tools.javac.file", attributes.getValue("Add-Exports"));
            assertEquals("ALL-UNNAMED", attributes.getValue("Enable-Native-Access"), "RocksDB loads a JNI library");
        }
    }

    @Test
    void aTinySweepRunsAndPrintsNoWarning() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        List<String> commandLineFlags = new ArrayList<>(ChronicleJvmFlags.block());
        commandLineFlags.removeAll(ChronicleJvmFlags.required());
        command.addAll(commandLineFlags);
        command.addAll(List.of("-jar", jar().toString(), "sweep", "--threads", "1", "--modes", "batch", "--peers", "chronicle-queue,rocksdb",
                "--async-submitters", "none", "--group-window-ms", "1", "--seconds", "0.2", "--warmup-seconds", "0.05",
                "--dir", tmp.resolve("cells").toString(), "--csv", tmp.resolve("sweep.csv").toString(),
                "--markdown", tmp.resolve("sweep.md").toString(), "--chart", tmp.resolve("sweep.png").toString()));
        Process process = new ProcessBuilder(command).redirectOutput(tmp.resolve("out.txt").toFile()).start();
        process.getOutputStream().close();
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the sweep ends");
        String out = Files.readString(tmp.resolve("out.txt"));
        assertEquals(0, process.exitValue(), err + out);
        List<String> warnings = err.lines().filter(line -> line.startsWith("WARNING") || line.contains("Exception") || line.contains("Error")).toList();
        assertEquals(List.of(), warnings, "stderr:\n" + err);
        String csv = Files.readString(tmp.resolve("sweep.csv"));
        for (String system : new String[] {"commitlog,batch,1,", "chronicle-queue,", "rocksdb,"}) {
            assertTrue(csv.lines().anyMatch(line -> line.startsWith(system)), system + " measured:\n" + csv);
        }
    }

    private static Path jar() {
        Path jar = Path.of(System.getProperty("commitlog.bench.jar", "target/commitlog-bench.jar"));
        assertTrue(Files.isRegularFile(jar), "the shaded jar is built by package: " + jar);
        return jar;
    }
}
