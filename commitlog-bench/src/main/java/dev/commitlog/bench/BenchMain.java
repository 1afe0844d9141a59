package dev.commitlog.bench;

import dev.commitlog.bench.codec.CodecBench;
import dev.commitlog.bench.codec.CodecOptions;
import dev.commitlog.bench.codec.CodecPairs;
import dev.commitlog.bench.pair.PairOptions;
import dev.commitlog.bench.pair.PairRunner;
import dev.commitlog.bench.sweep.SweepOptions;
import dev.commitlog.bench.sweep.SweepRunner;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point of the benchmarks jar: {@code sweep [flags]} runs the closed-loop sweep,
 * {@code pair --a X --b Y [flags]} the paired comparison of two of its columns, {@code codecs
 * [flags]} the cost of each record encoding on the durable append path ({@code codecs --pairs N}:
 * paired against raw bytes), and
 * {@code jmh [args]} hands over to JMH's own command line.
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        // Before any Chronicle or AWT class loads: no analytics ping, no display needed.
        System.setProperty("chronicle.analytics.disable", "true");
        System.setProperty("java.awt.headless", "true");
        // Keep stderr for progress lines: Chronicle's banner and INFO chatter off, warnings kept.
        System.setProperty("chronicle.announcer.disable", "true");
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        if (args.length > 0 && args[0].equals("jmh")) {
            JmhLauncher.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        System.exit(run(List.of(args), System.out, System.err));
    }

    /** Runs a command; returns the process exit code (0 ok, 1 failure, 2 bad command line). */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        try {
            if (args.isEmpty()) {
                err.println(SweepOptions.USAGE);
                return 2;
            }
            if (List.of("--help", "-h", "help").contains(args.get(0))) {
                out.println(SweepOptions.USAGE);
                return 0;
            }
            if (args.get(0).equals("pair")) {
                PairOptions pair = PairOptions.parse(args.subList(1, args.size()));
                if (pair.help()) {
                    out.println(PairOptions.USAGE);
                } else {
                    new PairRunner(pair, out, err).run();
                }
                return 0;
            }
            if (args.get(0).equals("codecs")) {
                CodecOptions codecs = CodecOptions.parse(args.subList(1, args.size()));
                if (codecs.help()) {
                    out.println(CodecOptions.USAGE);
                } else if (codecs.pairs() > 0) {
                    new CodecPairs(codecs, out, err).run();
                } else {
                    new CodecBench(codecs, out, err).run();
                }
                return 0;
            }
            if (!args.get(0).equals("sweep")) {
                throw new UsageException("unknown command '" + args.get(0) + "' (commands: sweep, pair, codecs, jmh)");
            }
            SweepOptions options = SweepOptions.parse(args.subList(1, args.size()));
            if (options.help()) {
                out.println(SweepOptions.USAGE);
                return 0;
            }
            new SweepRunner(options, out, err).run();
            return 0;
        } catch (UsageException e) {
            err.println("commitlog-bench: " + e.getMessage() + " (see --help)");
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("commitlog-bench: interrupted");
            return 1;
        } catch (Exception e) {
            err.println("commitlog-bench: " + args.get(0) + " failed: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }
}
