package dev.commitlog.bench.sweep;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's first lines: when and where the sweep ran, how many cells, how long each, how
 * many rounds, and so what a reported value is (a single measurement or a median).
 */
public final class RunHeader {

    private RunHeader() {
    }

    /** {@code columns}: closed-loop columns; {@code total}: cells of both sections (not counting rounds). */
    static List<String> describe(SweepOptions options, Path workDir, int columns, int total) throws IOException {
        int closedLoop = options.threads().size() * columns;
        int rounds = options.rounds();
        List<String> lines = new ArrayList<>(List.of(
                machine(),
                String.format(Locale.ROOT,
                        "%d cells (%d closed-loop: %d thread counts x %d columns; %d asynchronous)%s, each %.1f s "
                                + "warmup + %.1f s measured, %d-byte records, fresh directory per cell%s under %s (%s)",
                        total, closedLoop, closedLoop == 0 ? 0 : options.threads().size(), columns, total - closedLoop,
                        rounds == 1 ? "" : String.format(Locale.ROOT, " x %d rounds = %d cell runs", rounds, total * rounds),
                        options.timing().warmup().toMillis() / 1000.0,
                        options.timing().measure().toMillis() / 1000.0, options.recordBytes(),
                        rounds == 1 ? "" : " run", workDir.toAbsolutePath(), Files.getFileStore(workDir).type()),
                rounds(rounds)));
        if (options.deviceGate() > 0) {
            lines.add(DeviceGate.describe(options.deviceGate()));
        }
        return List.copyOf(lines);
    }

    /** When and on what the run ran: time, host, cores, OS and JDK. */
    public static String machine() {
        String when = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown host";
        }
        return String.format(Locale.ROOT, "Run %s on %s: %d cores, %s %s, JDK %s (%s)", when, host,
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
                System.getProperty("os.arch"), System.getProperty("java.version"),
                System.getProperty("java.vm.name"));
    }

    /** What a reported value is, given the rounds. */
    static String rounds(int n) {
        if (n == 1) {
            return "1 round per cell: every value is a single measurement (--rounds N measures each cell N times "
                    + "and reports medians)";
        }
        boolean even = n % 2 == 0;
        return String.format(Locale.ROOT, "%d rounds per cell, interleaved (a row runs all its columns once per "
                + "round, each round starting one column later): every value is the MEDIAN of the %d rounds (ops/s "
                + "their median%s; latencies and flush figures those of the %s)", n, n,
                even ? ", for an even count the mean of the two middle rounds" : "",
                even ? "lower of the two middle rounds" : "median-throughput round");
    }
}
