package dev.commitlog.bench.codec;

import dev.commitlog.bench.UsageException;
import dev.commitlog.bench.pair.DuelTiming;
import dev.commitlog.bench.pair.Flags;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code codecs} command line. Without {@code --pairs}: one pass over every encoding, a cell
 * each ({@link CodecBench}). With {@code --pairs N}: each encoding named by {@code --only} against
 * {@code --against}, slice by slice ({@link CodecPairs}). A bad flag or value is a
 * {@link UsageException} naming it.
 *
 * @param pairs   pairs of slices per column, or 0 for the single pass
 * @param against the encoding every paired ratio is taken against (its denominator)
 * @param floor   the ratio each paired interval is read against
 */
public record CodecOptions(int seconds, List<Integer> threads, List<Encoding> encodings, Path dir, int pairs, Encoding against,
                           double floor, DuelTiming timing, boolean help) {
    static final int MAX_PAIRS = 1000;
    /** The target for the hand codec: within 10% of raw bytes. */
    static final double DEFAULT_FLOOR = 0.9;

    public static final String USAGE = """
            usage: codecs [--seconds S] [--threads 1,8,64] [--only raw,hand,...] [--dir bench-out]
                   codecs --pairs N [--only hand,...] [--against raw] [--threads 1,8,64] [--slice-ms 200]
                          [--floor 0.9] [--dir bench-out]
              Appends WalRecords (100-300 bytes) through each encoding and prints records/ms appended
              durably (Adaptive) from each thread count, appended through appendAsync from one thread,
              and replayed.
              Without --pairs: one pass, every encoding (or --only's) in turn for S seconds a cell,
              ratios to raw, and bytes per record.
              With --pairs N: each --only encoding (default hand) against --against (default raw) in
              every column, the two logs open at once and N pairs of slices run alternately (ABBA BAAB);
              prints the median ratio of the pairs with its 95% interval, read against --floor.
              Encodings: raw (pre-encoded byte[]), raw+encode (the hand codec into the thread's own
              byte[], then a byte[] append), hand, protobuf, msgpack, kryo, kryo-staged, cbor, smile, json.""";

    /** Parses the arguments that follow {@code codecs}. */
    public static CodecOptions parse(List<String> args) throws UsageException {
        Flags flags = new Flags(args);
        if (flags.has("--help") || flags.has("-h")) {
            return new CodecOptions(0, List.of(), List.of(), null, 0, null, 0, null, true);
        }
        int pairs = flags.has("--pairs") ? flags.integer("--pairs", 6, MAX_PAIRS) : 0;
        if (pairs == 0) {
            for (String paired : List.of("--against", "--floor", "--slice-ms")) {
                if (flags.has(paired)) {
                    throw new UsageException(paired + " needs --pairs");
                }
            }
        } else if (flags.has("--seconds")) {
            throw new UsageException("--seconds is the single pass's cell length; with --pairs, give --slice-ms");
        }
        int seconds = flags.has("--seconds") ? flags.integer("--seconds", 1, 3600) : 2;
        List<Integer> threads = flags.has("--threads") ? flags.intList("--threads", 1, 4096) : List.of(1, 8, 64);
        Encoding against = flags.has("--against") ? encoding("--against", flags.value("--against")) : Encoding.named(Encoding.RAW);
        List<Encoding> encodings = flags.has("--only") ? encodings(flags.value("--only"))
                : pairs == 0 ? Encoding.all() : List.of(Encoding.named("hand"));
        if (pairs > 0) {
            encodings = encodings.stream().filter(e -> !e.name().equals(against.name())).toList();
            if (encodings.isEmpty()) {
                throw new UsageException("--only names no encoding but --against's " + against.name() + ": nothing to pair");
            }
        }
        double floor = flags.has("--floor") ? flags.positive("--floor") : DEFAULT_FLOOR;
        Duration slice = flags.has("--slice-ms") ? Duration.ofMillis(flags.integer("--slice-ms", 1, 60_000)) : DuelTiming.DEFAULT.slice();
        Path dir = flags.has("--dir") ? flags.path("--dir") : Path.of("bench-out");
        flags.rejectUnused();
        DuelTiming timing = new DuelTiming(pairs, slice, DuelTiming.DEFAULT.settle(), DuelTiming.DEFAULT.warmup());
        return new CodecOptions(seconds, threads, encodings, dir, pairs, against, floor, timing, false);
    }

    private static List<Encoding> encodings(String names) throws UsageException {
        List<Encoding> out = new ArrayList<>();
        for (String name : names.split(",", -1)) {
            out.add(encoding("--only", name.trim()));
        }
        return List.copyOf(out);
    }

    private static Encoding encoding(String flag, String name) throws UsageException {
        try {
            return Encoding.named(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException(flag + " " + name + ": " + e.getMessage());
        }
    }
}
