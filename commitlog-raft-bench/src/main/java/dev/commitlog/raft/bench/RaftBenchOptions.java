package dev.commitlog.raft.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The benchmark's command line. Every grid dimension is a comma-separated list; a bad flag or
 * value is a {@link UsageException} naming it. {@code --quick} narrows the defaults; any flag given
 * explicitly wins over it, whatever the order.
 */
public record RaftBenchOptions(List<Integer> replicas, List<Integer> payloads, List<Integer> groups,
                               List<Integer> inflight, List<Contender> contenders, Duration warmup, Duration measure,
                               int repeats, boolean reopen, Path dir, Path csv, Path log, boolean help) {

    public static final int MAX_GROUPS = 256;
    public static final int MAX_INFLIGHT = 16_384;
    public static final int MAX_PAYLOAD = 1 << 20;
    /** Raft groups need an odd number of voters to be useful; 1, 3 and 5 are the shapes anyone runs. */
    public static final List<Integer> ALLOWED_REPLICAS = List.of(1, 3, 5);

    public static final String USAGE = String.join("\n",
            "usage: java -jar commitlog-raft-bench/target/commitlog-raft-bench.jar [flags]",
            "",
            "SOFAJRaft groups on loopback, all hosts in this JVM, closed loop: JRaft's RocksDBLogStorage",
            "(one RocksDB per group per host) and RocksDBSegmentLogStorage (the same, large entries in",
            "segment files) against CommitLogLogStorage (one shared commit log per host) in adaptive and",
            "batch sync. Contenders run one after another for each cell; after each run the cluster is",
            "stopped and reopened on its data, and the reopen timed.",
            "",
            "  --replicas LIST     voters per group, one host each (default 3; 1 = the storage cost alone)",
            "  --payload LIST      task payload bytes (default 128,1024)",
            "  --groups LIST       Raft groups per host (default 1,8,24; 100 with 3 replicas is 300 nodes in",
            "                      this JVM: thousands of threads, minutes to start; see docs/raft.md)",
            "  --inflight LIST     tasks in flight in total, slot i to group i mod groups, so below the group",
            "                      count only the first groups carry load (default 1,8,64,256)",
            "  --contenders LIST   " + String.join(",", Contender.labels()) + " (default all but memory;",
            "                      memory: entries kept in a list, no disk: JRaft's own ceiling)",
            "  --seconds N         measured seconds per contender and cell (default 2; --quick 1)",
            "  --warmup-seconds N  unmeasured load before each measurement (default 1; --quick 0.5)",
            "  --repeats N         interleaved passes over the grid; figures are medians (default 1)",
            "  --no-reopen         skip the stop and timed reopen after each run (open ms, retained MiB)",
            "  --quick             smoke run: groups 1,8, inflight 64, payload 128, shorter measurements",
            "  --dir DIR           data directory, emptied after each measurement (default target/raft-bench-data)",
            "  --csv FILE          CSV output (default target/raft-bench.csv)",
            "  --log FILE          JRaft, Bolt and RocksDB log lines, warnings and up (default target/raft-bench.log;",
            "                      - for stderr)",
            "  --help              this text");

    public static RaftBenchOptions parse(List<String> args) throws UsageException {
        List<Integer> replicas = null;
        List<Integer> payloads = null;
        List<Integer> groups = null;
        List<Integer> inflight = null;
        List<Contender> contenders = Contender.DEFAULTS;
        Double seconds = null;
        Double warmup = null;
        int repeats = 1;
        boolean quick = false;
        boolean reopen = true;
        Path dir = Path.of("target", "raft-bench-data");
        Path csv = Path.of("target", "raft-bench.csv");
        Path log = Path.of("target", "raft-bench.log");
        boolean help = false;

        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String flag = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                flag = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            if (SWITCHES.contains(flag)) {
                if (value != null) {
                    throw new UsageException(flag + " takes no value (given '" + value + "')");
                }
                switch (flag) {
                    case "--help", "-h" -> help = true;
                    case "--quick" -> quick = true;
                    case "--no-reopen" -> reopen = false;
                    default -> throw new IllegalStateException("flag in SWITCHES without a case: " + flag);
                }
                continue;
            }
            if (!VALUED.contains(flag)) {
                throw new UsageException("unknown argument " + arg);
            }
            if (value == null) {
                if (i + 1 >= args.size()) {
                    throw new UsageException(flag + " needs a value");
                }
                value = args.get(++i);
            }
            String name = flag;
            switch (name) {
                case "--replicas" -> replicas = ints(name, value, 1, 5);
                case "--payload" -> payloads = ints(name, value, 1, MAX_PAYLOAD);
                case "--groups" -> groups = ints(name, value, 1, MAX_GROUPS);
                case "--inflight" -> inflight = ints(name, value, 1, MAX_INFLIGHT);
                case "--contenders" -> contenders = contenders(value);
                case "--seconds" -> seconds = seconds(name, value, false);
                case "--warmup-seconds" -> warmup = seconds(name, value, true);
                case "--repeats" -> repeats = one(name, value, 1, 99);
                case "--dir" -> dir = Path.of(value);
                case "--csv" -> csv = Path.of(value);
                case "--log" -> log = value.equals("-") ? null : Path.of(value);
                default -> throw new IllegalStateException("flag in VALUED without a case: " + name);
            }
        }
        if (replicas == null) {
            replicas = List.of(3);
        }
        for (int r : replicas) {
            if (!ALLOWED_REPLICAS.contains(r)) {
                throw new UsageException("--replicas " + r + ": a group has 1, 3 or 5 voters");
            }
        }
        return new RaftBenchOptions(replicas,
                payloads != null ? payloads : quick ? List.of(128) : List.of(128, 1024),
                groups != null ? groups : quick ? List.of(1, 8) : List.of(1, 8, 24),
                inflight != null ? inflight : quick ? List.of(64) : List.of(1, 8, 64, 256),
                contenders,
                duration(warmup != null ? warmup : quick ? 0.5 : 1.0),
                duration(seconds != null ? seconds : quick ? 1.0 : 2.0),
                repeats, reopen, dir, csv, log, help);
    }

    private static final Set<String> SWITCHES = Set.of("--help", "-h", "--quick", "--no-reopen");
    private static final Set<String> VALUED = Set.of("--replicas", "--payload", "--groups", "--inflight", "--contenders",
            "--seconds", "--warmup-seconds", "--repeats", "--dir", "--csv", "--log");

    /** Measurements the grid makes: cells times contenders times repeats. */
    public int measurements() {
        return replicas.size() * payloads.size() * groups.size() * inflight.size() * contenders.size() * repeats;
    }

    private static List<Integer> ints(String flag, String value, int min, int max) throws UsageException {
        Set<Integer> out = new LinkedHashSet<>();
        for (String part : value.split(",", -1)) {
            int n;
            try {
                n = Integer.parseInt(part.trim());
            } catch (NumberFormatException e) {
                throw new UsageException(flag + " '" + value + "': '" + part + "' is not a whole number");
            }
            if (n < min || n > max) {
                throw new UsageException(flag + " '" + value + "': " + n + " is outside " + min + ".." + max);
            }
            out.add(n);
        }
        return List.copyOf(out);
    }

    private static int one(String flag, String value, int min, int max) throws UsageException {
        if (value.contains(",")) {
            throw new UsageException(flag + " '" + value + "' takes one number");
        }
        return ints(flag, value, min, max).get(0);
    }

    private static List<Contender> contenders(String value) throws UsageException {
        Set<Contender> out = new LinkedHashSet<>();
        for (String part : value.split(",", -1)) {
            out.add(Contender.of(part.trim()));
        }
        return new ArrayList<>(out);
    }

    private static double seconds(String flag, String value, boolean zeroAllowed) throws UsageException {
        double s;
        try {
            s = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " '" + value + "' is not a number of seconds");
        }
        if (!(s >= 0) || (!zeroAllowed && s == 0) || s > 3600) {
            throw new UsageException(flag + " '" + value + "' must be " + (zeroAllowed ? "0" : "above 0") + " to 3600 seconds");
        }
        return s;
    }

    private static Duration duration(double seconds) {
        return Duration.ofNanos((long) (seconds * 1e9));
    }
}
