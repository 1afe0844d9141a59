package dev.commitlog.raft.bench;

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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One cell of the benchmark through its command line, every contender on single-node groups:
 * it runs, reopens each durable contender, prints the tables, writes the CSV and leaves no data.
 * Figures are not judged (speed is for the benchmark itself), except that a committed task cost
 * some sync: fsyncs/op above zero for every storage shows each one's counter is wired to the syncs
 * it really makes (and memory, which has no file, shows none); and that every durable storage was
 * reopened, with its open time, init time and retained bytes. The payload, 4,096 B, puts
 * {@code RocksDBSegmentLogStorage}'s entries (JRaft's encoding is longer than its 4,096-byte
 * threshold) in its segment files, the path its reopen has to recover.
 */
@Timeout(120)
class RaftBenchSmokeTest {
    @TempDir
    Path tmp;

    @Test
    void oneCellRunsEveryContenderAndReportsIt() throws Exception {
        Path data = tmp.resolve("data");
        Path csv = tmp.resolve("out.csv");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = RaftBenchMain.run(List.of("--replicas", "1", "--groups", "1", "--inflight", "4", "--payload", "4096",
                        "--contenders", String.join(",", Contender.labels()),
                        "--warmup-seconds", "0.2", "--seconds", "0.3", "--dir", data.toString(), "--csv", csv.toString(),
                        "--log", "-"),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, printed + err.toString(StandardCharsets.UTF_8));

        assertTrue(printed.contains("replicas 1, payload 4096 B: committed ops/s"), printed);
        assertTrue(printed.contains("replicas 1, payload 4096 B: reopen after the run"), printed);
        for (Contender c : Contender.values()) {
            assertTrue(printed.contains(c.label()), c.label() + " column in\n" + printed);
        }
        assertTrue(printed.lines().anyMatch(l -> l.matches("\\s+1\\s+4 \\|.*x \\|.*")), "row with the ratio in\n" + printed);

        List<String> rows = Files.readAllLines(csv);
        assertEquals(RaftBenchReport.CSV_HEADER, rows.get(0));
        assertEquals(1 + Contender.values().length, rows.size(), String.join("\n", rows));
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",", -1);
            assertTrue(Double.parseDouble(f[5]) > 0, "ops/s in " + row);
            if (f[4].equals(Contender.MEMORY.label())) {
                assertEquals(0, Double.parseDouble(f[8]), "memory syncs nothing: " + row);
                assertEquals(List.of("", "", "", ""), List.of(f).subList(12, 16), "memory is not reopened: " + row);
            } else {
                assertTrue(Double.parseDouble(f[8]) > 0, "fsyncs/op in " + row);
                // empty only where the data directory has no block device (tmpfs, overlay)
                assertTrue(f[11].isEmpty() || Double.parseDouble(f[11]) > 0, "a synced task reached the device: " + row);
                double open = Double.parseDouble(f[12]);
                double init = Double.parseDouble(f[13]);
                assertTrue(init > 0 && open >= init, "reopened: open " + open + " ms, init " + init + " ms in " + row);
                // allocated bytes empty only where du is missing
                assertTrue(f[14].isEmpty() || Double.parseDouble(f[14]) > 0, "allocated bytes retained in " + row);
                assertTrue(Double.parseDouble(f[15]) > 0, "bytes retained in " + row);
                if (f[4].equals(Contender.ROCKSDB_SEGMENT.label())) {
                    // JRaft's segment storage, not its plain RocksDB one: 1 GiB segment files, mapped sparse
                    assertTrue(Double.parseDouble(f[15]) >= 1 << 30, "segment files in " + row);
                }
            }
            assertEquals("", f[10], "no error in " + row);
            assertEquals("", f[16], "reopened without error: " + row);
            assertEquals(17, f.length, row);
        }
        try (Stream<Path> left = Files.list(data)) {
            assertEquals(List.of(), left.toList(), "each cluster's data is deleted after its measurement");
        }
    }
}
