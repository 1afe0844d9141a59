package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.testkit.ChildJvm;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user's runtime class path gets from {@code commitlog-core}: the jars Maven resolves
 * (written at build time by maven-dependency-plugin's {@code build-classpath}, scope runtime, into
 * {@code target/runtime-classpath.txt}), none of those the pom excludes from Chronicle Bytes, and a
 * full workload that runs without them.
 */
class RuntimeClassPathTest {
    private static final Path CLASS_PATH_FILE = Path.of("target/runtime-classpath.txt");
    /** The most jars commitlog-core may bring (its own jar not counted): a new one is a decision. */
    private static final int MAX_JARS = 8;
    /** Artifacts commitlog-core's pom excludes from Chronicle Bytes; see the comment there. */
    private static final List<String> EXCLUDED = List.of("jnr-ffi", "jffi", "jnr-constants", "jnr-a64asm", "jnr-x86asm", "asm",
            "jna", "jna-platform", "chronicle-analytics");
    /** Packages of the excluded libraries, as -verbose:class names a loaded class. */
    private static final Pattern EXCLUDED_CLASS = Pattern.compile("\\[class,load\\] (jnr\\.|com\\.kenai\\.jffi\\.|com\\.sun\\.jna\\."
            + "|org\\.objectweb\\.asm\\.|net\\.openhft\\.chronicle\\.analytics\\.)\\S*");

    @TempDir
    Path dir;

    @Test
    void theRuntimeClassPathHoldsNoExcludedJarAndNoMoreThanItDid() throws IOException {
        List<Path> jars = runtimeJars();
        long bytes = 0;
        StringBuilder list = new StringBuilder();
        for (Path jar : jars) {
            long size = Files.size(jar);
            bytes += size;
            list.append(String.format(Locale.ROOT, "  %,10d  %s%n", size, jar.getFileName()));
        }
        System.out.printf(Locale.ROOT, "commitlog-core runtime class path: %d jars, %.2f MB (%,d bytes), its own jar not counted%n%s",
                jars.size(), bytes / 1e6, bytes, list);
        for (Path jar : jars) {
            String name = jar.getFileName().toString();
            for (String artifact : EXCLUDED) {
                assertFalse(name.matches(Pattern.quote(artifact) + "-\\d.*\\.jar"), name + " is on the runtime class path: excluded in commitlog-core's pom");
            }
        }
        assertTrue(jars.size() <= MAX_JARS, jars.size() + " jars, at most " + MAX_JARS + " expected:\n" + list);
        assertTrue(jars.stream().anyMatch(jar -> jar.getFileName().toString().startsWith("chronicle-bytes-")), "Chronicle Bytes stays");
    }

    /**
     * The workload in a plain JVM (no JUnit on the stack, where Chronicle probes its POSIX binding)
     * runs to the end, loads nothing from the excluded libraries, and Chronicle fell back to its
     * no-op POSIX binding: it looked for JNR, did not find it, and went on.
     */
    @Test
    void aFullWorkloadRunsWithoutTheExcludedLibrariesAndLoadsNothingFromThem() throws Exception {
        List<String> command = ChildJvm.command(WorkloadChild.class, dir.toString());
        command.add(1, "-verbose:class");
        Process child = ChildJvm.start(command);
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the workload finishes");
        List<String> lines = output.lines().toList();
        String result = lines.stream().filter(line -> line.startsWith("done ") || line.startsWith("failed: ")).findFirst()
                .orElse("no result line");
        assertEquals("done " + 4 * 300, result, () -> output.lines().filter(line -> !line.startsWith("[")).reduce("", (a, b) -> a + "\n" + b));
        List<String> loaded = new ArrayList<>();
        for (String line : lines) {
            var m = EXCLUDED_CLASS.matcher(line);
            if (m.find()) {
                loaded.add(m.group());
            }
        }
        assertTrue(loaded.isEmpty(), loaded.size() + " classes of excluded libraries were loaded, the first: " + loaded.subList(0, Math.min(5, loaded.size())));
        assertTrue(lines.stream().anyMatch(line -> line.startsWith("[") && line.contains(" net.openhft.posix.internal.noop.NoOpPosixAPI ")),
                "Chronicle probed its POSIX binding and fell back to the no-op one");
    }

    private static List<Path> runtimeJars() throws IOException {
        assertTrue(Files.isRegularFile(CLASS_PATH_FILE), CLASS_PATH_FILE + " is written by the build (maven-dependency-plugin, "
                + "generate-test-resources): run the tests through Maven");
        List<Path> jars = new ArrayList<>();
        for (String entry : Files.readString(CLASS_PATH_FILE).trim().split(Pattern.quote(File.pathSeparator))) {
            if (!entry.isBlank()) {
                jars.add(Path.of(entry.trim()));
            }
        }
        assertFalse(jars.isEmpty(), "an empty class path file");
        return jars;
    }
}
