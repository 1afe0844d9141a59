package dev.commitlog.bench.pair;

import dev.commitlog.bench.UsageException;
import dev.commitlog.bench.sweep.LogSections;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The {@code pair} command line. A bad flag or value is a {@link UsageException} naming it.
 *
 * @param a     the column whose ratio is measured (the numerator)
 * @param b     the column it is measured against
 * @param floor    the ratio the reading compares the interval with
 * @param json     the writers append JSON-like records ({@code --payload json}) rather than random bytes
 * @param baseline another build's commitlog-core jar, whose engine the {@code baseline-*} columns open; or null
 */
public record PairOptions(String a, String b, List<Integer> threads, DuelTiming timing, double floor, int recordBytes,
                          boolean json, Path dir, Path csv, Path markdown, Path baseline, boolean help) {

    public static final List<Integer> DEFAULT_THREADS = List.of(1, 2, 4, 8, 16, 32, 64, 128, 256);
    public static final Path DEFAULT_OUTPUT = Path.of("bench-out");
    static final int MAX_PAIRS = 1000;
    static final int MAX_THREADS = 4096;

    public static final String USAGE = String.join("\n",
            "usage: java -jar commitlog-bench.jar pair --a COLUMN --b COLUMN [flags]",
            "",
            "Paired comparison of two columns: both open at once, the same writer threads switching",
            "between them every slice (ABBA BAAB), so each pair of adjacent slices shares the machine's",
            "state of the moment. Reports the median of the pairs' ratios (a over b) and its 95%",
            "confidence interval (sign test), and whether that interval lies above or below --floor.",
            "Run it with --a and --b the same column first to see this machine's noise (an A/A duel).",
            "",
            "  --a COLUMN              numerator: " + ContenderLabels.known(),
            "                          and, with --baseline-jar, baseline-periodic, baseline-batch,",
            "                          baseline-adaptive, baseline-group-Nms: that build's engine",
            "  --b COLUMN              denominator, the same choices",
            "                          A mode's label may carry the sections it stores its flushes as, as the",
            "                          sweep's --compression/--encryption label them: +lz4 or +zstd, and/or +aes",
            "                          (AES-GCM under a key drawn for the run), e.g. --a adaptive+lz4 --b adaptive",
            "                          or --a adaptive+aes --b adaptive (encryption against plain)",
            "  --baseline-jar JAR      another build's commitlog-core jar (or classes directory), loaded",
            "                          beside this one: pair an engine change before and after, e.g.",
            "                          --a adaptive --b baseline-adaptive",
            "  --threads LIST          writer threads per row (default 1,2,4,8,16,32,64,128,256)",
            "  --floor R               the ratio the interval is read against (default 1)",
            "  --pairs N               pairs of slices per row (6.." + MAX_PAIRS + ", default " + DuelTiming.DEFAULT.pairs() + ";",
            "                          fewer than 6 give no 95% interval)",
            "  --slice-ms N            measured part of each slice (default " + DuelTiming.DEFAULT.slice().toMillis() + ")",
            "  --settle-ms N           unmeasured start of each slice, while the other column's last",
            "                          appends return (default " + DuelTiming.DEFAULT.settle().toMillis() + ")",
            "  --warmup-seconds N      unmeasured warmup per row, half on each column (default "
                    + DuelTiming.DEFAULT.warmup().toMillis() / 1000.0 + ")",
            "  --record-bytes N        record payload size (default 100)",
            "  --payload KIND          random (default: incompressible bytes) or json (JSON-like text); each",
            "                          writer cycles through " + LogSections.RECORDS + " distinct records, as in the sweep",
            "  --dir DIR               where row directories are made (default: ./bench-out/tmp-*)",
            "  --csv FILE              every pair's rates and ratio (default bench-out/pair.csv)",
            "  --markdown FILE         the report (default bench-out/pair.md)",
            "  --help                  this text");

    /** Parses the arguments that follow {@code pair}. */
    public static PairOptions parse(List<String> args) throws UsageException {
        Flags flags = new Flags(args);
        if (flags.has("--help") || flags.has("-h")) {
            return new PairOptions("", "", DEFAULT_THREADS, DuelTiming.DEFAULT, 1, 100, false, null, null, null, null, true);
        }
        Path baseline = flags.has("--baseline-jar") ? flags.path("--baseline-jar") : null;
        String a = ContenderLabels.check("--a", flags.required("--a"), baseline != null);
        String b = ContenderLabels.check("--b", flags.required("--b"), baseline != null);
        List<Integer> threads = flags.has("--threads") ? flags.intList("--threads", 1, MAX_THREADS) : DEFAULT_THREADS;
        DuelTiming timing = new DuelTiming(
                flags.has("--pairs") ? flags.integer("--pairs", 6, MAX_PAIRS) : DuelTiming.DEFAULT.pairs(),
                flags.has("--slice-ms") ? Duration.ofMillis(flags.integer("--slice-ms", 1, 60_000)) : DuelTiming.DEFAULT.slice(),
                flags.has("--settle-ms") ? Duration.ofMillis(flags.integer("--settle-ms", 0, 60_000)) : DuelTiming.DEFAULT.settle(),
                flags.has("--warmup-seconds") ? flags.seconds("--warmup-seconds") : DuelTiming.DEFAULT.warmup());
        double floor = flags.has("--floor") ? flags.positive("--floor") : 1;
        int recordBytes = flags.has("--record-bytes") ? flags.integer("--record-bytes", 1, 1 << 20) : 100;
        boolean json = flags.has("--payload") && LogSections.json("--payload", flags.value("--payload"));
        Path dir = flags.has("--dir") ? flags.path("--dir") : null;
        Path csv = flags.has("--csv") ? flags.path("--csv") : DEFAULT_OUTPUT.resolve("pair.csv");
        Path markdown = flags.has("--markdown") ? flags.path("--markdown") : DEFAULT_OUTPUT.resolve("pair.md");
        flags.rejectUnused();
        return new PairOptions(a, b, threads, timing, floor, recordBytes, json, dir, csv, markdown, baseline, false);
    }
}
