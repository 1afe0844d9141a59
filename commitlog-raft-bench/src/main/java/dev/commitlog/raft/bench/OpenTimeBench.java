package dev.commitlog.raft.bench;

import dev.commitlog.disk.ChronicleJvmFlags;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Open (restart) time of a shared Raft log against the groups and bytes it holds, with and without
 * index checkpoints. For each group count: grows a log to each retained size in turn
 * ({@link OpenTimeFill}), then measures, each in a fresh JVM ({@link OpenTimeProbe}), the first
 * init after reopening it:
 * <ul>
 *   <li>{@code replay}: no checkpoint file, the whole log replayed (what every open did before checkpoints);</li>
 *   <li>{@code checkpoint}: the checkpoint the close wrote, nothing after it;</li>
 *   <li>{@code checkpoint+tail}: the newest checkpoint the daemon thread wrote before the close, and
 *       the records after it (a restart after a crash).</li>
 * </ul>
 * The modes rotate from pass to pass; figures are medians. {@code --cold} drops the page cache before
 * each probe ({@code /proc/sys/vm/drop_caches}, root only); {@code --keep} leaves the logs in place.
 *
 * <pre>
 * java $(JVM flags) -cp commitlog-raft-bench/target/commitlog-raft-bench.jar dev.commitlog.raft.bench.OpenTimeBench \
 *     --dir /data/open-time --groups 10,1000,10000 --retained-mib 1024,4096 --payload 1024 --repeats 3 [--cold] [--keep]
 * </pre>
 */
public final class OpenTimeBench {
    private static final List<String> MODES = List.of("replay", "checkpoint", "checkpoint+tail");

    private OpenTimeBench() {
    }

    public static void main(String[] args) throws Exception {
        RaftBenchMain.quietLogging();
        Map<String, String> flags = new HashMap<>();
        boolean cold = false;
        boolean keep = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--cold" -> cold = true;
                case "--keep" -> keep = true;
                case "--dir", "--groups", "--retained-mib", "--payload", "--repeats" -> {
                    if (i + 1 == args.length) {
                        throw new IllegalArgumentException(args[i] + " needs a value");
                    }
                    flags.put(args[i], args[++i]);
                }
                default -> throw new IllegalArgumentException("unknown flag " + args[i]
                        + "; flags: --dir DIR --groups LIST --retained-mib LIST --payload BYTES --repeats N --cold --keep");
            }
        }
        Path root = Path.of(flags.getOrDefault("--dir", "target/open-time"));
        List<Integer> groupCounts = ints(flags.getOrDefault("--groups", "10,1000,10000"));
        List<Integer> retainedMib = ints(flags.getOrDefault("--retained-mib", "1024,4096"));
        int payload = Integer.parseInt(flags.getOrDefault("--payload", "1024"));
        int repeats = Integer.parseInt(flags.getOrDefault("--repeats", "3"));
        System.out.printf("open-time %s: groups %s, retained MiB %s, payload %d B, %d passes, %s page cache, %d cores, java %s%n",
                Instant.now(), groupCounts, retainedMib, payload, repeats, cold ? "cold (dropped before each probe)" : "warm",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        System.out.println("| groups | retained MiB | entries | checkpoint KiB | mode | replayed MiB | open ms median (min-max) "
                + "| log open ms | init ms | heap MiB | heap B/entry |");
        System.out.println("|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|");
        for (int groups : groupCounts) {
            Path dir = root.resolve(groups + "-groups");
            Path aside = root.resolve(groups + "-groups-aside");
            delete(dir);
            delete(aside);
            Files.createDirectories(dir);
            OpenTimeFill fill = new OpenTimeFill(dir, groups, payload);
            for (int mib : retainedMib) {
                long filling = System.nanoTime();
                Path tail = fill.growTo(mib * (1L << 20), aside.resolve("tail"));
                List<Path> closed = OpenTimeFill.checkpoints(dir);
                Path close = closed.isEmpty() ? null : Files.copy(closed.get(closed.size() - 1),
                        Files.createDirectories(aside.resolve("close")).resolve(closed.get(closed.size() - 1).getFileName()));
                System.err.printf("filled %d groups to %d MiB (%d entries) in %.0f s%n", groups, mib, fill.entries(),
                        (System.nanoTime() - filling) / 1e9);
                Map<String, List<Map<String, String>>> results = new LinkedHashMap<>();
                for (int pass = 0; pass < repeats; pass++) {
                    for (int m = 0; m < MODES.size(); m++) {
                        String mode = MODES.get((m + pass) % MODES.size());
                        Path file = switch (mode) {
                            case "replay" -> null;
                            case "checkpoint" -> close;
                            default -> tail;
                        };
                        if (!mode.equals("replay") && file == null) {
                            continue;
                        }
                        useCheckpoint(dir, file);
                        if (cold) {
                            dropPageCache();
                        }
                        Map<String, String> result = probe(dir);
                        System.err.printf("  %s pass %d: %s%n", mode, pass, result);
                        results.computeIfAbsent(mode, k -> new ArrayList<>()).add(result);
                    }
                }
                for (String mode : MODES) {
                    List<Map<String, String>> runs = results.get(mode);
                    if (runs == null) {
                        continue;
                    }
                    Path file = mode.equals("checkpoint") ? close : mode.equals("replay") ? null : tail;
                    long start = file == null ? 0 : Long.parseLong(file.getFileName().toString().replaceAll("\\D", ""));
                    List<Double> open = values(runs, "open_ms");
                    double heap = median(values(runs, "heap_bytes"));
                    System.out.printf("| %,d | %,d | %,d | %s | %s | %,.0f | %,.0f (%,.0f-%,.0f) | %,.0f | %,.0f | %,.1f | %.1f |%n", groups, mib,
                            fill.entries(), close == null ? "-" : String.format("%,.0f", Files.size(close) / 1024.0), mode,
                            (median(values(runs, "end")) - start) / 1048576.0, median(open), open.get(0), open.get(open.size() - 1),
                            median(values(runs, "log_open_ms")), median(values(runs, "init_ms")), heap / 1048576.0,
                            heap / fill.entries());
                }
                useCheckpoint(dir, close); // the next fill starts from it
            }
            if (!keep) {
                delete(dir);
                delete(aside);
            }
        }
    }

    /** Leaves {@code file} (or none) as the directory's only checkpoint. */
    private static void useCheckpoint(Path dir, Path file) throws IOException {
        for (Path existing : OpenTimeFill.checkpoints(dir)) {
            Files.delete(existing);
        }
        if (file != null) {
            Files.copy(file, dir.resolve(file.getFileName()));
        }
    }

    private static Map<String, String> probe(Path dir) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(ChronicleJvmFlags.block());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(OpenTimeProbe.class.getName());
        command.add(dir.toString());
        command.add(OpenTimeFill.key(0));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String read; (read = out.readLine()) != null; ) {
                if (read.contains("open_ms=")) {
                    line = read;
                }
            }
        }
        if (process.waitFor() != 0 || line == null) {
            throw new IllegalStateException("open-time probe of " + dir + " failed (exit " + process.exitValue() + ")");
        }
        Map<String, String> result = new LinkedHashMap<>();
        for (String field : line.trim().split(" ")) {
            String[] kv = field.split("=", 2);
            result.put(kv[0], kv[1]);
        }
        return result;
    }

    private static void dropPageCache() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("sh", "-c", "sync && echo 3 > /proc/sys/vm/drop_caches").inheritIO().start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException("could not drop the page cache (root only): exit " + process.exitValue());
        }
    }

    private static List<Double> values(List<Map<String, String>> runs, String key) {
        return runs.stream().map(run -> Double.parseDouble(run.get(key))).sorted().toList();
    }

    private static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static List<Integer> ints(String list) {
        List<Integer> values = new ArrayList<>();
        for (String value : list.split(",")) {
            values.add(Integer.parseInt(value.trim()));
        }
        return values;
    }

    private static void delete(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
