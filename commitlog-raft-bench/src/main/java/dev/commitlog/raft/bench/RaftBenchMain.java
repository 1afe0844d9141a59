package dev.commitlog.raft.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * Entry point of {@code commitlog-raft-bench.jar}: parses the flags (see
 * {@link RaftBenchOptions#USAGE}), runs the grid, prints the tables and writes the CSV.
 */
public final class RaftBenchMain {

    private RaftBenchMain() {
    }

    public static void main(String[] args) {
        quietLogging();
        System.exit(run(List.of(args), System.out, System.err));
    }

    /** Before any Chronicle or JRaft class loads: no analytics ping, warnings only on stderr. */
    static void quietLogging() {
        System.setProperty("chronicle.analytics.disable", "true");
        System.setProperty("chronicle.announcer.disable", "true");
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        // Per-node or per-connection notices, repeated for every one of up to 72 nodes.
        for (String noisy : List.of("com.alipay.sofa.common.log", "com.alipay.sofa.jraft.RaftGroupService",
                "com.alipay.sofa.jraft.core.NodeImpl")) {
            String key = "org.slf4j.simpleLogger.log." + noisy;
            if (System.getProperty(key) == null) {
                System.setProperty(key, "error");
            }
        }
    }

    /**
     * Sends slf4j-simple's output to a file: dozens of nodes starting (peers not yet listening) and
     * stopping (connections closing) log pages of expected errors that would bury the progress lines.
     * Takes effect only if no logger was made yet in this JVM, as in {@link #main}.
     */
    private static void logTo(Path file) throws IOException {
        String key = "org.slf4j.simpleLogger.logFile";
        if (file == null || System.getProperty(key) != null) {
            return;
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        System.setProperty(key, file.toString());
    }

    /** Runs the benchmark; returns the process exit code (0 ok, 1 a measurement or reopen failed or an error, 2 bad flags). */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        RaftBenchOptions options;
        try {
            options = RaftBenchOptions.parse(args);
        } catch (UsageException e) {
            err.println("commitlog-raft-bench: " + e.getMessage() + " (see --help)");
            return 2;
        }
        if (options.help()) {
            out.println(RaftBenchOptions.USAGE);
            return 0;
        }
        try {
            logTo(options.log());
            out.printf("commitlog-raft-bench %s: %d measurements, %s warm-up + %s each, %d cores, java %s%n",
                    Instant.now(), options.measurements(), options.warmup(), options.measure(),
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
            RaftBenchReport report = new RaftBenchReport(new RaftBenchRunner(options, err).run(), options.contenders());
            report.printTables(out);
            report.writeCsv(options.csv());
            out.println();
            out.println("CSV: " + options.csv().toAbsolutePath());
            if (options.log() != null) {
                out.println("JRaft/RocksDB log: " + options.log().toAbsolutePath());
            }
            return report.medians().stream().allMatch(Measurement::clean) ? 0 : 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("commitlog-raft-bench: interrupted");
            return 1;
        } catch (Exception e) {
            err.println("commitlog-raft-bench: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }
}
