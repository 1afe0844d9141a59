package dev.commitlog.examples;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each example as examples/README.md runs it: {@code java -jar target/commitlog-examples.jar NAME},
 * no other flag (the manifest carries Chronicle's and the class path). It must finish by itself,
 * exit 0, say what it did, and delete the temporary directory it worked in. Runs after
 * {@code package}, under failsafe.
 */
class ExamplesJarIT {
    /** A line each example prints once it checked its own outcome. */
    private static final Map<String, String> LAST_WORDS = Map.of(
            "key-value", "closed and opened again: replay rebuilt the same 40 keys",
            "typed-records", "reopened: replayed the same 1000 trades",
            "async-appends", "a replay finds all 20100 records",
            "replica", "holds the same 39 keys",
            "raft", "accounts: leader 127.0.0.1:",
            "micrometer", "commitlog.appends.completed [Measurement{statistic='COUNT', value=1000.0}]");

    @TempDir
    Path root;

    record Result(int exitCode, String out, String err) {
    }

    static Stream<String> names() {
        return Examples.ALL.keySet().stream();
    }

    @Test
    void everyExampleHasAnExpectedLine() {
        assertEquals(Examples.ALL.keySet(), LAST_WORDS.keySet());
    }

    @ParameterizedTest
    @MethodSource("names")
    void runsFromTheJarAndCleansUp(String name) throws Exception {
        Path tmp = Files.createDirectories(root.resolve("tmp"));
        Result result = run(tmp, name);
        assertEquals(0, result.exitCode(), name + ":\n" + result.out() + "\n" + result.err());
        assertTrue(result.out().contains(LAST_WORDS.get(name)), name + " printed:\n" + result.out());
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), name + " deletes its temporary directory");
        }
    }

    @Test
    void aGivenDirectoryIsUsedAndKept() throws Exception {
        Path dir = root.resolve("kv");
        assertEquals(0, run(root, "key-value", dir.toString()).exitCode());
        Result again = run(root, "key-value", dir.toString());
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(again.out().startsWith("opened " + dir + ": replay found 40 keys"), again.out());
    }

    @Test
    void anUnknownOrMissingNameListsTheExamples() throws Exception {
        for (String[] args : new String[][] {{}, {"frobnicate"}}) {
            Result result = run(root, args);
            assertEquals(2, result.exitCode(), result.err());
            assertTrue(result.err().contains("NAME one of " + String.join(", ", Examples.ALL.keySet())), result.err());
        }
    }

    private Result run(Path tmp, String... args) throws IOException, InterruptedException {
        Path jar = Path.of(System.getProperty("commitlog.examples.jar", "target/commitlog-examples.jar"));
        assertTrue(Files.isRegularFile(jar), "the jar is built by package: " + jar);
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-Djava.io.tmpdir=" + tmp);
        if (Runtime.version().feature() >= 23) {
            // JDK 23+ warns once per JVM when sun.misc.Unsafe's memory methods are used (Chronicle unmaps segments with one).
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(List.of(args));
        Path out = Files.createTempFile(root, "out", ".txt");
        Path err = Files.createTempFile(root, "err", ".txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        process.getOutputStream().close();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(String.join(" ", args) + " did not finish within 90 s:\n" + Files.readString(out, StandardCharsets.UTF_8));
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
