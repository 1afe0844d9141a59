package dev.commitlog.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code pair} command end to end through the jar's entry point, on short slices of two real columns. */
class PairSmokeTest {

    @TempDir
    Path tmp;

    @Test
    void batchAgainstATenMillisecondGroupWindowReadsAboveTwoInEveryRowAndWritesEveryPair() throws Exception {
        Path csv = tmp.resolve("out/pair.csv");
        Path markdown = tmp.resolve("out/pair.md");
        String printed = pair(csv, markdown, "--a", "batch", "--b", "group-10ms", "--threads", "1,4", "--pairs", "10",
                "--floor", "2", "--slice-ms", "60", "--settle-ms", "5", "--warmup-seconds", "0.2");

        List<String> rows = Files.readAllLines(csv);
        assertEquals("a,b,threads,pair,a_ops_per_s,b_ops_per_s,ratio,a_cpu_us_per_record,b_cpu_us_per_record", rows.get(0));
        assertEquals(1 + 2 * 10, rows.size(), "a line per pair per row");
        assertTrue(rows.get(1).startsWith("batch,group-10ms,1,1,"), rows.get(1));
        assertTrue(rows.get(20).startsWith("batch,group-10ms,4,10,"), rows.get(20));
        String report = Files.readString(markdown);
        assertEquals(report, printed);
        assertTrue(report.contains("## Paired comparison: batch over group-10ms"), report);
        assertTrue(report.contains("fdatasync probe"), report);
        // Group holds every flush of a lone writer for its 10 ms window; Batch flushes at once (about
        // 0.2 ms here): some forty times the rate, so even the interval's low end is far above 2. With
        // 4 writers the gap is smaller and a busy machine's slices can leave it unresolved: that row
        // only has to be read against the floor.
        assertEquals(1, report.lines().filter(l -> l.matches("\\| 1 \\|.*\\| above \\|")).count(), report);
        assertEquals(1, report.lines().filter(l -> l.matches("\\| 4 \\|.*\\| (above|below|not resolved) \\|")).count(), report);
        assertTrue(report.contains("| threads | batch p50 (us) | group-10ms p50 (us) | batch p99 (us) | group-10ms p99 (us) "
                + "| batch records per flush | group-10ms records per flush |"), report);
        // A lone writer's flush covers its one record in either mode.
        assertEquals(1, report.lines().filter(l -> l.matches("\\| 1 \\|( [0-9.,]+ \\|){4} 1\\.0 \\| 1\\.0 \\|")).count(), report);
        assertTrue(Files.list(tmp.resolve("rows")).findAny().isEmpty(), "row directories deleted");
    }

    @Test
    void encryptedCompressedAgainstPlainOnJsonRecordsReportsEachColumnsCpuPerRecord() throws Exception {
        Path csv = tmp.resolve("sections/pair.csv");
        Path markdown = tmp.resolve("sections/pair.md");
        pair(csv, markdown, "--a", "batch+lz4+aes", "--b", "batch", "--payload", "json", "--threads", "2",
                "--pairs", "6", "--slice-ms", "60", "--settle-ms", "5", "--warmup-seconds", "0.1");

        String report = Files.readString(markdown);
        assertTrue(report.contains("## Paired comparison: batch+lz4+aes over batch"), report);
        assertTrue(report.contains("records: JSON-like text, 256 distinct, each writer appending them in turn from its own"), report);
        assertTrue(report.contains("[sections: compression lz4, encryption aes-gcm]"), report);
        assertTrue(report.contains("| threads | batch+lz4+aes | batch | ratio (median of pairs) | 95% interval |"), report);
        List<String[]> rows = Files.readAllLines(csv).stream().skip(1).map(l -> l.split(",", -1)).toList();
        assertEquals(6, rows.size());
        int cores = Runtime.getRuntime().availableProcessors();
        for (String[] r : rows) {
            assertEquals(9, r.length, String.join(",", r));
            for (int column = 0; column < 2; column++) {
                double ops = Double.parseDouble(r[4 + column]);
                // a slice with no append (a stall on a busy machine) has no CPU per record; any other has one
                assertEquals(ops == 0, r[7 + column].isEmpty(), "slice CPU per record " + String.join(",", r));
                if (ops == 0) {
                    continue;
                }
                double cpu = Double.parseDouble(r[7 + column]);
                // CPU per record x records per second: at most every core busy (a 10 ms tick either side of 60 ms allowed for)
                assertTrue(cpu >= 0 && cpu * ops / 1e6 <= cores + 0.35, "slice CPU per record " + String.join(",", r));
            }
        }
    }

    @Test
    void pairHelpAndBadFlagsExitAsTheSweepDoes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(0, BenchMain.run(List.of("pair", "--help"), o, e));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--floor R"));
        assertEquals(2, BenchMain.run(List.of("pair", "--a", "batch"), o, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--b is required"), err.toString(StandardCharsets.UTF_8));
    }

    /** Runs {@code pair} with {@code args}, rows under tmp/rows, into {@code csv} and {@code markdown}; returns what it printed. */
    private String pair(Path csv, Path markdown, String... args) {
        List<String> command = new ArrayList<>(List.of("pair"));
        command.addAll(List.of(args));
        command.addAll(List.of("--dir", tmp.resolve("rows").toString(), "--csv", csv.toString(), "--markdown", markdown.toString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = BenchMain.run(command, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
