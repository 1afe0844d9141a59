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

/** The {@code codecs} command through the jar's entry point: a short real single pass, a short paired run, and bad flags. */
class CodecsSmokeTest {
    @TempDir
    Path tmp;

    @Test
    void printsOneRowPerEncodingWithRatiosToRawAndCleansUp() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = BenchMain.run(List.of("codecs", "--seconds", "1", "--threads", "2", "--only", "raw,raw+encode,hand,json", "--dir", tmp.toString()),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String table = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        assertTrue(table.contains("| 2 threads | appendAsync, 1 thread | replay | payload bytes | log bytes per record |"), table);
        for (String row : List.of("| raw | byte[] copy (pre-encoded) | ", "| raw+encode | encode to own byte[], then copy | ",
                "| hand | in place (Chronicle Bytes) | ", "| json | staged + copy | ")) {
            assertTrue(table.contains(row), row + " missing from\n" + table);
        }
        assertTrue(table.matches("(?s).*\\| raw \\|[^\\n]*\\(1\\.00\\).*"), "raw is its own ceiling:\n" + table);
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(0, left.count(), "the logs are deleted afterwards");
        }
    }

    @Test
    void pairsEachEncodingAgainstTheReferenceInEveryColumn() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = BenchMain.run(List.of("codecs", "--pairs", "6", "--threads", "2", "--slice-ms", "30", "--only", "hand",
                        "--against", "json", "--floor", "2", "--dir", tmp.toString()),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String report = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        assertTrue(report.contains("## Encodings paired against json"), report);
        assertTrue(report.contains("| encoding | column | encoding records/ms | json records/ms | ratio (median of pairs) | 95% interval "
                + "| pairs >= 2.000 | reading against 2.000 |"), report);
        for (String column : List.of("2 threads, durable", "appendAsync, 1 thread", "replay")) {
            assertEquals(1, report.lines().filter(l -> l.startsWith("| hand | " + column + " |") && l.contains(" of 6 |")).count(),
                    column + " missing from\n" + report);
        }
        // The hand codec decodes a record in tens of ns, Jackson's JSON in hundreds: every pair's
        // replay ratio (hand over json) is far above 2, so the 6-pair interval is too. Had the duel
        // swapped its two logs, or paired a log with itself, this would read "below" or "not resolved".
        assertTrue(report.lines().anyMatch(l -> l.startsWith("| hand | replay |") && l.endsWith("| 6 of 6 | above |")), report);
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
        assertEquals(2, BenchMain.run(List.of("codecs", "--rounds", "3"), System.out, errors));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown argument --rounds"), err.toString(StandardCharsets.UTF_8));
    }
}
