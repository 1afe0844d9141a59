package dev.commitlog.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.report.CsvWriter;
import dev.commitlog.bench.report.TargetReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A few hundred milliseconds of real sweep through the same entry point as the jar: one durable
 * commit-log mode and the fsync-each peer on 1 and 4 threads plus one asynchronous cell, every
 * output file checked; the ablation columns, a simulated slow device and the asynchronous section
 * alone, on tiny cells.
 */
class SweepSmokeTest {

    @TempDir
    Path tmp;

    /** One sweep's exit code, printed output and output files. */
    private record Run(int exit, String out, String err, Path csv, Path markdown, Path chart) {
    }

    /** Runs {@code sweep} through the jar's entry point, writing its files under {@code tmp/name/}. */
    private Run sweep(String name, String... flags) {
        Path csv = tmp.resolve(name + "/sweep.csv");
        Path markdown = tmp.resolve(name + "/sweep.md");
        Path chart = tmp.resolve(name + "/sweep.png");
        List<String> args = new ArrayList<>(List.of("sweep", "--dir", tmp.resolve("cells").toString(),
                "--csv", csv.toString(), "--markdown", markdown.toString(), "--chart", chart.toString()));
        args.addAll(List.of(flags));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = BenchMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
                csv, markdown, chart);
    }

    @Test
    void shortSweepWritesParsableCsvMarkdownAndChart() throws Exception {
        Run run = sweep("out", "--threads", "1,4", "--modes", "batch", "--peers", "fsync-each",
                "--seconds", "0.3", "--warmup-seconds", "0.1",
                "--async-submitters", "1", "--async-modes", "adaptive", "--async-in-flight", "64");

        String stderr = run.err();
        assertEquals(0, run.exit(), stderr);
        assertTrue(stderr.contains("fdatasync probe: 200 x"), stderr);
        assertTrue(run.out().contains("\n5 cells (4 closed-loop: 2 thread counts x 2 columns; 1 asynchronous), each measured "
                + "once: 0.1 s warmup + 0.3 s measured, 100-byte records"), run.out());
        assertEquals(5, stderr.lines().filter(l -> l.matches("\\[ ?\\d/5].*")).count(), "one progress line per cell:\n" + stderr);

        List<String> lines = Files.readAllLines(run.csv());
        assertEquals(CsvWriter.HEADER, lines.get(0));
        List<String[]> rows = lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList();
        assertEquals(5, rows.size(), String.join("\n", lines));
        Set<String> seen = rows.stream().map(r -> r[0] + "/" + r[1] + "/" + r[2]).collect(Collectors.toSet());
        assertEquals(Set.of("commitlog/batch/1", "commitlog/batch/4", "fsync-each//1", "fsync-each//4",
                "commitlog/adaptive-async/1"), seen);
        assertEquals("commitlog/adaptive-async/1", rows.get(4)[0] + "/" + rows.get(4)[1] + "/" + rows.get(4)[2],
                "the asynchronous rows come after the closed-loop ones");
        int cores = Runtime.getRuntime().availableProcessors();
        for (String[] r : rows) {
            assertEquals(13, r.length, Arrays.toString(r));
            // CPU per record x records per second is the process's CPU seconds per second: at most
            // every core busy (one 10 ms tick either side of a 0.3 s window allowed for)
            double cpuPerRecord = Double.parseDouble(r[12]);
            assertTrue(cpuPerRecord >= 0 && cpuPerRecord * Double.parseDouble(r[3]) / 1e6 <= cores + 0.1,
                    "cpu us/record " + Arrays.toString(r));
            assertTrue(Double.parseDouble(r[3]) > 0, "ops/s " + Arrays.toString(r));
            double p50 = Double.parseDouble(r[4]);
            double p99 = Double.parseDouble(r[5]);
            double p999 = Double.parseDouble(r[6]);
            assertTrue(p50 > 0 && p50 <= p99 && p99 <= p999, "percentiles " + Arrays.toString(r));
            assertTrue(Double.parseDouble(r[7]) > 0, "flushes/s " + Arrays.toString(r));
            assertTrue(Double.parseDouble(r[8]) >= 1, "records/flush " + Arrays.toString(r));
            // bytes/s = ops/s x 100-byte records (ops/s is printed to 0.1, hence the tolerance)
            assertEquals(Double.parseDouble(r[3]) * 100, Double.parseDouble(r[9]), 100 * 0.05 + 1);
            // device bytes: empty only where the cells' directory has no block device (tmpfs, overlay);
            // per framed byte only for the commit log, whose frames (112 bytes here) the harness knows
            if (!r[10].isEmpty()) {
                assertTrue(Double.parseDouble(r[10]) > 0, "device bytes per byte " + Arrays.toString(r));
                assertEquals(r[0].equals("commitlog"), !r[11].isEmpty(), "per framed byte " + Arrays.toString(r));
            }
        }
        assertTrue(rows.stream().anyMatch(r -> Double.parseDouble(r[12]) > 0), "some cell cost CPU:\n" + String.join("\n", lines));
        Map<String, String> eachRecordsPerFlush = rows.stream().filter(r -> r[0].equals("fsync-each"))
                .collect(Collectors.toMap(r -> r[2], r -> r[8]));
        assertEquals(Map.of("1", "1.00", "4", "1.00"), eachRecordsPerFlush, "fsync-each flushes once per record");

        String md = Files.readString(run.markdown());
        assertTrue(md.contains("| threads | batch | fsync-each |"), md);
        assertTrue(md.contains("| threads | batch / fsync-each |"), md);
        assertTrue(md.contains("Batch at 1 thread / fsync-each at 1 thread"), md);
        assertTrue(md.contains("| met |") || md.contains("| MISSED |"), "the pass's reading of a target it measured:\n" + md);
        assertTrue(md.contains("\n\n" + TargetReport.PAIR_NOTE + "\n"), "the note under the targets table:\n" + md);
        assertTrue(md.contains("### Asynchronous appends (appendAsync, up to 64 in flight per submitting thread)"), md);
        assertTrue(md.contains("\n| 1 | adaptive-async | "), md);
        assertTrue(md.contains("| Async, one submitting thread (64 in flight): durable appends/s | "), md);
        assertEquals(md, run.out(), "the report is printed to stdout");

        byte[] png = Files.readAllBytes(run.chart());
        assertTrue(png.length > 1000, "chart size " + png.length);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));

        try (var left = Files.list(tmp.resolve("cells"))) {
            assertEquals(List.of(), left.toList(), "cell directories are deleted without --keep");
        }
    }

    /**
     * 20 ms more per flush, one flush at a time: at most window / 20 ms + 1 flushes complete in a
     * window (one may have started before it), where the real disk alone makes thousands a second.
     */
    @Test
    void deviceLatencySlowsEveryCommitLogFlushAndKeepLeavesOneDirectoryPerCell() throws Exception {
        Run run = sweep("slow", "--threads", "1,4", "--modes", "batch", "--peers", "none", "--async-submitters", "none",
                "--device-latency-us", "20000", "--seconds", "0.3", "--warmup-seconds", "0.05", "--keep");

        assertEquals(0, run.exit(), run.err());
        List<String[]> rows = Files.readAllLines(run.csv()).stream().skip(1).map(l -> l.split(",", -1)).toList();
        assertEquals(List.of("batch/1", "batch/4"), rows.stream().map(r -> r[1] + "/" + r[2]).toList());
        for (String[] r : rows) {
            double flushesPerSec = Double.parseDouble(r[7]);
            assertTrue(flushesPerSec > 0 && flushesPerSec <= 1 / 0.020 + 1 / 0.3 + 0.5,
                    "one 20 ms flush at a time: " + Arrays.toString(r));
        }
        assertTrue(Double.parseDouble(rows.get(0)[3]) <= 1 / 0.020 + 1 / 0.3 + 0.5,
                "a lone writer waits for each of its flushes: " + Arrays.toString(rows.get(0)));
        assertTrue(Files.readString(run.markdown()).contains(
                "[simulated device: every flush waits 20000 us more after its fdatasync, one flush at a time]"), run.out());

        try (var kept = Files.list(tmp.resolve("cells"))) {
            assertEquals(List.of("001-batch-1t", "002-batch-4t"), kept.map(p -> p.getFileName().toString()).sorted().toList(),
                    "a fresh directory for every cell, kept with --keep");
        }
    }

    @Test
    void compressedEncryptedColumnsAreLabelledAndSaySo() throws Exception {
        Run run = sweep("sections", "--threads", "2", "--modes", "batch", "--peers", "none", "--compression", "lz4",
                "--encryption", "aes-gcm", "--payload", "json", "--async-submitters", "none", "--seconds", "0.2",
                "--warmup-seconds", "0.05");

        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("[sections: compression lz4, encryption aes-gcm]"), run.out());
        assertTrue(run.out().contains("records: JSON-like text; commit log sections: compression lz4, encryption aes-gcm"), run.out());
        List<String> cells = Files.readAllLines(run.csv()).stream().skip(1).map(l -> l.split(",", -1)[1]).toList();
        assertEquals(List.of("batch+lz4+aes"), cells);
    }

    @Test
    void discardRunsADiscarderBesideEveryCommitLogCellAndSaysSo() throws Exception {
        Run run = sweep("discard", "--threads", "2", "--modes", "batch", "--peers", "none", "--discard",
                "--async-submitters", "1", "--async-modes", "batch", "--async-in-flight", "16",
                "--seconds", "0.2", "--warmup-seconds", "0.05");

        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("[discarding: a thread calls discardUpTo(durablePosition()) every 1 ms]"), run.out());
        List<String> cells = Files.readAllLines(run.csv()).stream().skip(1).map(l -> l.split(",", -1)[1]).toList();
        assertEquals(List.of("batch", "batch-async"), cells);
    }

    @Test
    void ablationColumnsAreMeasuredShownAndLeftOutOfTheTargets() throws Exception {
        Run run = sweep("ablation", "--threads", "2", "--modes", "batch,adaptive", "--ablation", "--peers", "none",
                "--async-submitters", "none", "--seconds", "0.2", "--warmup-seconds", "0.05");

        assertEquals(0, run.exit(), run.err());
        List<String> modes = Files.readAllLines(run.csv()).stream().skip(1).map(l -> l.split(",", -1)[1]).toList();
        assertEquals(List.of("batch", "adaptive", "batch-classic", "batch-park", "batch-inline", "adaptive-inline", "adaptive-nogather",
                "batch-mark-every-flush", "batch-norecycle", "adaptive-norecycle", "batch-direct", "adaptive-direct", "batch-sparse",
                "batch-fallocate", "batch-unpaced-zeros", "periodic-paced-zeros"), modes);
        String md = Files.readString(run.markdown());
        String columns = "| threads | batch | adaptive | batch-classic | batch-park | batch-inline | adaptive-inline | adaptive-nogather | batch-mark-every-flush |";
        int deviceTable = md.contains("### Device bytes") ? 1 : 0;   // none where the directory has no block device
        assertTrue(md.contains("### CPU per record"), md);
        assertEquals(4 + deviceTable, md.split(Pattern.quote(columns), -1).length - 1,
                "throughput, p99, records-per-flush, CPU (and device-bytes) tables carry the ablation columns:\n" + md);
        assertTrue(md.contains("batch-classic: commitlog batch with no leader/follower (SyncTuning inlineFlushRecords=0)"), md);
        String targets = md.substring(md.indexOf("### Targets"), md.indexOf("### p99"));
        assertTrue(targets.contains("| Adaptive / best of batch, every thread count | min "), targets);
        assertFalse(targets.contains("-classic") || targets.contains("-park") || targets.contains("-nogather")
                || targets.contains("-every-flush") || targets.contains("-inline") || targets.contains("-recycle")
                || targets.contains("-direct"), targets);
    }

    @Test
    void asyncSectionAloneWritesItsRowsAndNoChart() throws Exception {
        Run run = sweep("async", "--modes", "none", "--peers", "none",
                "--async-submitters", "1,2", "--async-modes", "batch", "--async-in-flight", "1",
                "--seconds", "0.2", "--warmup-seconds", "0.05");

        String stderr = run.err();
        assertEquals(0, run.exit(), stderr);
        assertTrue(stderr.contains("[ 2/2]    2 submitters  batch-async"), stderr);
        List<String[]> rows = Files.readAllLines(run.csv()).stream().skip(1).map(l -> l.split(",", -1)).toList();
        assertEquals(List.of("batch-async/1", "batch-async/2"), rows.stream().map(r -> r[1] + "/" + r[2]).toList());
        for (String[] r : rows) {
            double ops = Double.parseDouble(r[3]);
            double flushes = Double.parseDouble(r[7]);
            double perFlush = Double.parseDouble(r[8]);
            assertTrue(ops > 0 && flushes > 0, Arrays.toString(r));
            // the engine's own counters agree with the completions the callbacks counted
            assertEquals(ops, flushes * perFlush, ops * 0.5, Arrays.toString(r));
            // one append in flight per submitter: no flush can cover more records than there are submitters
            assertTrue(perFlush <= Integer.parseInt(r[2]), "in-flight bound honoured: " + Arrays.toString(r));
        }
        String md = Files.readString(run.markdown());
        assertFalse(md.contains("### Throughput"), md);
        assertTrue(md.contains("| Async, one submitting thread (1 in flight): durable appends/s | "), md);
        assertFalse(Files.exists(run.chart()), "no closed-loop cells, no chart");
    }
}
