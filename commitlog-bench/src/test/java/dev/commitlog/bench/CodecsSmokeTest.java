package dev.commitlog.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code codecs} command through the jar's entry point: one short real run, and its bad flags. */
class CodecsSmokeTest {
    @TempDir
    Path tmp;

    @Test
    void printsOneRowPerEncodingWithRatiosToRawAndCleansUp() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = BenchMain.run(List.of("codecs", "--seconds", "1", "--threads", "2", "--only", "raw,hand,json", "--dir", tmp.toString()),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String table = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        assertTrue(table.contains("| 2 threads | appendAsync, 1 thread | replay | payload bytes | log bytes per record |"), table);
        for (String row : List.of("| raw | byte[] copy (pre-encoded) | ", "| hand | in place (Chronicle Bytes) | ", "| json | staged + copy | ")) {
            assertTrue(table.contains(row), row + " missing from\n" + table);
        }
        assertTrue(table.matches("(?s).*\\| raw \\|[^\\n]*\\(1\\.00\\).*"), "raw is its own ceiling:\n" + table);
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(0, left.count(), "the logs are deleted afterwards");
        }
    }

    @Test
    void badFlagsAreUsageErrors() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(2, BenchMain.run(List.of("codecs", "--only", "yaml"), System.out, errors));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no encoding named 'yaml'"), err.toString(StandardCharsets.UTF_8));
        assertEquals(2, BenchMain.run(List.of("codecs", "--seconds"), System.out, errors));
    }
}
