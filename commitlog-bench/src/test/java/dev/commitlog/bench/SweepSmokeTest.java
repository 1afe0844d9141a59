package dev.commitlog.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.report.CsvWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A few hundred milliseconds of real sweep through the same entry point as the jar: one durable
 * commit-log mode and the fsync-each peer on 1 and 4 threads, every output file checked.
 */
class SweepSmokeTest {

    @TempDir
    Path tmp;

    @Test
    void shortSweepWritesParsableCsvMarkdownAndChart() throws Exception {
        Path csv = tmp.resolve("out/sweep.csv");
        Path markdown = tmp.resolve("out/sweep.md");
        Path chart = tmp.resolve("out/sweep.png");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exit = BenchMain.run(List.of("sweep", "--threads", "1,4", "--modes", "batch",
                        "--peers", "fsync-each", "--seconds", "0.3", "--warmup-seconds", "0.1",
                        "--dir", tmp.resolve("cells").toString(), "--csv", csv.toString(),
                        "--markdown", markdown.toString(), "--chart", chart.toString()),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        String stderr = err.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, stderr);
        assertTrue(stderr.contains("fdatasync probe: 200 x"), stderr);
        assertEquals(4, stderr.lines().filter(l -> l.matches("\\[ ?\\d/4].*")).count(), "one progress line per cell:\n" + stderr);

        List<String> lines = Files.readAllLines(csv);
        assertEquals(CsvWriter.HEADER, lines.get(0));
        List<String[]> rows = lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList();
        assertEquals(4, rows.size(), String.join("\n", lines));
        Set<String> seen = rows.stream().map(r -> r[0] + "/" + r[1] + "/" + r[2]).collect(Collectors.toSet());
        assertEquals(Set.of("commitlog/batch/1", "commitlog/batch/4", "fsync-each//1", "fsync-each//4"), seen);
        for (String[] r : rows) {
            assertEquals(10, r.length, Arrays.toString(r));
            assertTrue(Double.parseDouble(r[3]) > 0, "ops/s " + Arrays.toString(r));
            double p50 = Double.parseDouble(r[4]);
            double p99 = Double.parseDouble(r[5]);
            double p999 = Double.parseDouble(r[6]);
            assertTrue(p50 > 0 && p50 <= p99 && p99 <= p999, "percentiles " + Arrays.toString(r));
            assertTrue(Double.parseDouble(r[7]) > 0, "flushes/s " + Arrays.toString(r));
            assertTrue(Double.parseDouble(r[8]) >= 1, "records/flush " + Arrays.toString(r));
            // bytes/s = ops/s x 100-byte records (ops/s is printed to 0.1, hence the tolerance)
            assertEquals(Double.parseDouble(r[3]) * 100, Double.parseDouble(r[9]), 100 * 0.05 + 1);
        }
        Map<String, String> eachRecordsPerFlush = rows.stream().filter(r -> r[0].equals("fsync-each"))
                .collect(Collectors.toMap(r -> r[2], r -> r[8]));
        assertEquals(Map.of("1", "1.00", "4", "1.00"), eachRecordsPerFlush, "fsync-each flushes once per record");

        String md = Files.readString(markdown);
        assertTrue(md.contains("| threads | batch | fsync-each |"), md);
        assertTrue(md.contains("| threads | batch / fsync-each |"), md);
        assertTrue(md.contains("Batch at 1 thread / fsync-each at 1 thread"), md);
        assertEquals(md, out.toString(StandardCharsets.UTF_8), "the report is printed to stdout");

        byte[] png = Files.readAllBytes(chart);
        assertTrue(png.length > 1000, "chart size " + png.length);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));

        try (var left = Files.list(tmp.resolve("cells"))) {
            assertEquals(List.of(), left.toList(), "cell directories are deleted without --keep");
        }
    }
}
