package dev.commitlog.bench.sweep;

import dev.commitlog.CommitLog;
import dev.commitlog.bench.UsageException;
import dev.commitlog.bench.peer.PeerCatalog;
import dev.commitlog.bench.sut.CommitLogModes;
import dev.commitlog.bench.sut.SyncAblation;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The sweep's command line: one descriptive pass, each cell measured once (a close ratio is
 * judged with {@code pair}). Flags are stable and scriptable; a bad flag or value is a
 * {@link UsageException} naming it. Explicit {@code --seconds}/{@code --warmup-seconds} win over
 * {@code --full} whatever their order.
 */
public record SweepOptions(List<Integer> threads, List<String> modes, List<Integer> groupWindowsMs,
                           List<String> ablations, AsyncOptions async,
                           CellTiming timing, int recordBytes, int deviceLatencyMicros, boolean discard, LogSections sections,
                           Path dir, List<String> peers,
                           Path csv, Path chart, Path markdown, boolean keep, boolean help) {

    public static final List<Integer> DEFAULT_THREADS = List.of(1, 2, 4, 8, 16, 32, 64, 128, 256);
    public static final int DEFAULT_RECORD_BYTES = 100;
    public static final int MAX_RECORD_BYTES = 1 << 20;
    public static final int MAX_THREADS = 4096;
    public static final Path DEFAULT_OUTPUT = Path.of("bench-out");
    /** The adaptive target is judged against Group with these windows, in the same run. */
    public static final List<Integer> DEFAULT_GROUP_WINDOWS_MS = List.of(1, 2, 10);

    public static final String USAGE = String.join("\n",
            "usage: java -jar commitlog-bench.jar sweep [flags]",
            "       java -jar commitlog-bench.jar pair --a COLUMN --b COLUMN [flags]   (paired comparison; pair --help)",
            "       java -jar commitlog-bench.jar jmh [JMH args]   (e.g. -prof gc; -h for JMH's help)",
            "",
            "Closed-loop append sweep: every commit-log sync mode and every peer, at each thread count,",
            "each cell measured once. Judge a close ratio with pair.",
            "",
            "  --threads LIST          writer threads per cell (default 1,2,4,8,16,32,64,128,256)",
            "  --modes LIST            commit-log sync modes (default: all of " + String.join(",", CommitLogModes.names()) + "), or none",
            "  --group-window-ms LIST  group windows; each is its own column, e.g. group-2ms (default 1,2,10)",
            "  --ablation[=LIST]       add columns with one sync mechanism switched off (or on): all of",
            "                          " + String.join(", ", SyncAblation.labels()) + ",",
            "                          or those listed (tables only, not targets)",
            "  --async-submitters LIST appendAsync section: submitting threads per row (default 1,4), or none",
            "  --async-in-flight N     appends each submitting thread keeps outstanding (default 4096)",
            "  --async-modes LIST      sync modes of the async section (default batch,adaptive; not periodic)",
            "  --seconds N             measured seconds per cell (default 2; --full: 20)",
            "  --warmup-seconds N      unmeasured warmup per cell (default 0.5; --full: 5)",
            "  --full                  longer cells",
            "  --record-bytes N        record payload size (default 100)",
            "  --payload KIND          random (default: incompressible bytes) or json (JSON-like text)",
            "  --compression CODEC     the commit log's columns compress each flush: none (default), lz4, zstd",
            "  --encryption CIPHER     the commit log's columns encrypt each flush: none (default), aes-gcm",
            "  --device-latency-us N   every commit-log flush waits N us more after its fdatasync (a simulated",
            "                          slow device; flushes run one at a time; needs --peers none; default 0)",
            "  --discard               a thread beside each commit-log cell calls discardUpTo(durablePosition())",
            "                          every millisecond: the steady state, segments bounded",
            "  --dir DIR               where cell directories are made (default: ./bench-out/tmp-*)",
            "  --peers LIST            " + String.join(",", PeerCatalog.names()) + " (default all), or none",
            "  --csv FILE              CSV output (default bench-out/sweep.csv)",
            "  --markdown FILE         markdown report (default bench-out/sweep.md)",
            "  --chart FILE.png        throughput and p99 chart (default bench-out/sweep.png)",
            "  --keep                  leave each cell's directory in place",
            "  --help                  this text");

    /** Parses the arguments that follow {@code sweep}. */
    public static SweepOptions parse(List<String> args) throws UsageException {
        List<Integer> threads = DEFAULT_THREADS;
        List<String> modes = CommitLogModes.names();
        List<Integer> windows = DEFAULT_GROUP_WINDOWS_MS;
        List<String> ablations = List.of();
        List<Integer> asyncSubmitters = AsyncOptions.DEFAULT_SUBMITTERS;
        int asyncInFlight = AsyncOptions.DEFAULT_IN_FLIGHT;
        List<String> asyncModes = AsyncOptions.DEFAULT_MODES;
        Double seconds = null;
        Double warmup = null;
        boolean full = false;
        int recordBytes = DEFAULT_RECORD_BYTES;
        int deviceLatency = 0;
        boolean discard = false;
        Compression compression = Compression.NONE;
        Encryption encryption = Encryption.NONE;
        boolean json = false;
        Path dir = null;
        List<String> peers = PeerCatalog.names();
        Path csv = DEFAULT_OUTPUT.resolve("sweep.csv");
        Path chart = DEFAULT_OUTPUT.resolve("sweep.png");
        Path markdown = DEFAULT_OUTPUT.resolve("sweep.md");
        boolean keep = false;
        boolean help = false;

        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String flag = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                flag = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            switch (flag) {
                case "--help", "-h" -> help = true;
                case "--full" -> full = true;
                case "--keep" -> keep = true;
                case "--discard" -> discard = true;
                case "--ablation" -> ablations = inline == null ? SyncAblation.labels()
                        : list(flag, inline, SweepOptions::ablationLabel);
                default -> {
                    String value;
                    if (inline != null) {
                        value = inline;
                    } else if (i + 1 < args.size()) {
                        value = args.get(++i);
                    } else {
                        throw new UsageException(flag.startsWith("-") && isValued(flag)
                                ? flag + " needs a value" : "unknown argument " + flag);
                    }
                    String name = flag;   // effectively final, for the parsers below
                    switch (name) {
                        case "--threads" -> threads = list(name, value, v -> intIn(name, v, 1, MAX_THREADS));
                        case "--modes" -> modes = value.equals("none") ? List.of() : list(name, value, v -> mode(name, v));
                        case "--group-window-ms" -> windows = list(name, value, v -> intIn(name, v, 1, 60_000));
                        case "--async-submitters" -> asyncSubmitters = value.equals("none") ? List.of()
                                : list(name, value, v -> intIn(name, v, 1, MAX_THREADS));
                        case "--async-in-flight" -> asyncInFlight =
                                intIn(name, value, 1, CommitLog.MAX_ASYNC_IN_FLIGHT_PER_THREAD);
                        case "--async-modes" -> asyncModes = list(name, value, v -> asyncMode(name, v));
                        case "--seconds" -> seconds = seconds(name, value, false);
                        case "--warmup-seconds" -> warmup = seconds(name, value, true);
                        case "--record-bytes" -> recordBytes = intIn(name, value, 1, MAX_RECORD_BYTES);
                        case "--device-latency-us" -> deviceLatency = intIn(name, value, 0, 1_000_000);
                        case "--compression" -> compression = LogSections.compression(name, value);
                        case "--encryption" -> encryption = LogSections.encryption(name, value);
                        case "--payload" -> json = LogSections.json(name, value);
                        case "--dir" -> dir = path(name, value);
                        case "--peers" -> peers = value.equals("none") ? List.of() : list(name, value, v -> peer(name, v));
                        case "--csv" -> csv = path(name, value);
                        case "--chart" -> chart = path(name, value);
                        case "--markdown" -> markdown = path(name, value);
                        default -> throw new UsageException("unknown argument " + arg);
                    }
                }
            }
        }
        if (modes.isEmpty() && peers.isEmpty() && ablations.isEmpty() && asyncSubmitters.isEmpty()) {
            throw new UsageException("nothing to measure: --modes none, --peers none and --async-submitters none");
        }
        if (deviceLatency > 0 && !peers.isEmpty()) {
            throw new UsageException("--device-latency-us slows the commit log's flushes only; add --peers none");
        }
        CellTiming base = full ? CellTiming.FULL : CellTiming.DEFAULT;
        CellTiming timing = new CellTiming(
                warmup == null ? base.warmup() : duration(warmup),
                seconds == null ? base.measure() : duration(seconds));
        return new SweepOptions(threads, modes, windows, ablations,
                new AsyncOptions(asyncSubmitters, asyncInFlight, asyncModes), timing, recordBytes, deviceLatency, discard,
                new LogSections(compression, encryption, json), dir, peers,
                csv, chart, markdown, keep, help);
    }

    private static boolean isValued(String flag) {
        return List.of("--threads", "--modes", "--group-window-ms", "--seconds", "--warmup-seconds",
                "--record-bytes", "--device-latency-us", "--compression", "--encryption", "--payload", "--dir", "--peers", "--csv", "--chart", "--markdown",
                "--async-submitters", "--async-in-flight", "--async-modes").contains(flag);
    }

    private interface Parser<T> {
        T parse(String value) throws UsageException;
    }

    private static <T> List<T> list(String flag, String value, Parser<T> parser) throws UsageException {
        Set<T> seen = new LinkedHashSet<>();
        for (String part : value.split(",", -1)) {
            T parsed = parser.parse(part.trim());
            if (!seen.add(parsed)) {
                throw new UsageException(flag + ": " + part.trim() + " is listed twice");
            }
        }
        return List.copyOf(new ArrayList<>(seen));
    }

    /** {@code value} as an integer in {@code min..max}, or a usage error naming the flag and the range. */
    public static int intIn(String flag, String value, int min, int max) throws UsageException {
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below with the accepted range
        }
        throw new UsageException(flag + ": '" + value + "' is not an integer in " + min + ".." + max);
    }

    private static double seconds(String flag, String value, boolean zeroAllowed) throws UsageException {
        try {
            double s = Double.parseDouble(value);
            if (Double.isFinite(s) && (s > 0 || (zeroAllowed && s == 0)) && s <= 86_400) {
                return s;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(flag + ": '" + value + "' is not a number of seconds "
                + (zeroAllowed ? ">= 0" : "> 0"));
    }

    private static Duration duration(double seconds) {
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }

    private static String mode(String flag, String value) throws UsageException {
        String m = value.toLowerCase(Locale.ROOT);
        if (!CommitLogModes.names().contains(m)) {
            throw new UsageException(flag + ": unknown mode '" + value + "' (modes: "
                    + String.join(",", CommitLogModes.names()) + ")");
        }
        return m;
    }

    private static String asyncMode(String flag, String value) throws UsageException {
        String m = mode(flag, value);
        if (m.equals("periodic")) {
            throw new UsageException(flag + ": periodic completes an asynchronous append only at its next "
                    + "periodic sync, so its rate would measure the sync period (use batch, group or adaptive)");
        }
        return m;
    }

    private static String ablationLabel(String value) throws UsageException {
        if (!SyncAblation.labels().contains(value)) {
            throw new UsageException("--ablation: unknown ablation column '" + value + "' (columns: "
                    + String.join(",", SyncAblation.labels()) + ")");
        }
        return value;
    }

    /** Whether any ablation column is measured. */
    public boolean ablation() {
        return !ablations.isEmpty();
    }

    private static String peer(String flag, String value) throws UsageException {
        if (!PeerCatalog.exists(value)) {
            throw new UsageException(flag + ": unknown peer '" + value + "' (peers: "
                    + String.join(",", PeerCatalog.names()) + ", or none)");
        }
        return value;
    }

    private static Path path(String flag, String value) throws UsageException {
        if (value.isBlank()) {
            throw new UsageException(flag + ": empty path");
        }
        try {
            return Path.of(value);
        } catch (RuntimeException e) {
            throw new UsageException(flag + ": bad path '" + value + "'");
        }
    }
}
