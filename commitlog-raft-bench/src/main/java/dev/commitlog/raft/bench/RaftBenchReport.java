package dev.commitlog.raft.bench;

import dev.commitlog.bench.stats.PairedRatio;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The benchmark's output: a table per (replicas, payload) with a row per (groups, in flight) and,
 * per contender, committed ops/s and p99 commit latency (medians over the passes); the best
 * commit-log contender's ops/s over RocksDB's (and RocksDBSegmentLogStorage's and memory's, JRaft's
 * ceiling, when they ran); each contender's fsyncs per committed operation; and its device bytes per
 * payload byte committed. When the runs were reopened, a table of the reopen: open and init
 * milliseconds and the MiB retained on disk. With more than one pass, a table gives each contender's ops/s
 * over RocksDB's pass by pass, as a median with its 95% interval, and one over memory's when it ran.
 * The medians also go to CSV.
 */
final class RaftBenchReport {
    static final String CSV_HEADER = "replicas,payload,groups,inflight,contender,ops_per_s,p50_ms,p99_ms,fsyncs_per_op,failed_tasks,error,"
            + "device_bytes_per_byte,open_ms,init_ms,retained_bytes,retained_apparent_bytes,reopen_error";

    private final List<Passes> passes;
    private final List<Measurement> measurements;
    private final List<Contender> contenders;

    RaftBenchReport(List<Passes> passes, List<Contender> contenders) {
        this.passes = passes;
        this.measurements = passes.stream().map(Passes::median).toList();
        this.contenders = contenders;
    }

    /** The medians, one per contender and cell. */
    List<Measurement> medians() {
        return measurements;
    }

    void printTables(PrintStream out) {
        List<int[]> shapes = new ArrayList<>();
        for (Measurement m : measurements) {
            int[] shape = {m.cell().replicas(), m.cell().payload()};
            if (shapes.stream().noneMatch(s -> s[0] == shape[0] && s[1] == shape[1])) {
                shapes.add(shape);
            }
        }
        boolean ratio = contenders.contains(Contender.ROCKSDB) && contenders.stream().anyMatch(Contender::commitLog);
        boolean segment = contenders.contains(Contender.ROCKSDB) && contenders.contains(Contender.ROCKSDB_SEGMENT);
        boolean ceiling = contenders.contains(Contender.ROCKSDB) && contenders.contains(Contender.MEMORY);
        for (int[] shape : shapes) {
            out.printf(Locale.ROOT, "%nreplicas %d, payload %d B: committed ops/s and p99 commit latency (ms)%n", shape[0], shape[1]);
            StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%6s %8s", "", ""));
            StringBuilder units = new StringBuilder(String.format(Locale.ROOT, "%6s %8s", "groups", "inflight"));
            for (Contender c : contenders) {
                header.append(String.format(Locale.ROOT, " | %20s", c.label()));
                units.append(String.format(Locale.ROOT, " | %10s %9s", "ops/s", "p99 ms"));
            }
            if (ratio) {
                header.append(String.format(Locale.ROOT, " | %14s", "best commitlog"));
                units.append(String.format(Locale.ROOT, " | %14s", "/ rocksdb"));
            }
            if (segment) {
                header.append(String.format(Locale.ROOT, " | %14s", "segment"));
                units.append(String.format(Locale.ROOT, " | %14s", "/ rocksdb"));
            }
            if (ceiling) {
                header.append(String.format(Locale.ROOT, " | %14s", "memory"));
                units.append(String.format(Locale.ROOT, " | %14s", "/ rocksdb"));
            }
            perContenderHeading(header, units, "fsyncs/op");
            perContenderHeading(header, units, "device B/B");
            out.println(header.toString().stripTrailing());
            out.println(units.toString().stripTrailing());
            out.println("-".repeat(units.length()));
            for (Cell cell : cells(shape[0], shape[1])) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%6d %8d", cell.groups(), cell.inflight()));
                for (Contender c : contenders) {
                    Optional<Measurement> m = find(cell, c);
                    row.append(" | ").append(m.filter(Measurement::ok)
                            .map(x -> String.format(Locale.ROOT, "%10.0f %9.2f", x.opsPerSec(), x.p99Millis()))
                            .orElse(String.format(Locale.ROOT, "%20s", "failed")));
                }
                if (ratio) {
                    row.append(String.format(Locale.ROOT, " | %14s", times(ratio(cell))));
                }
                if (segment) {
                    row.append(String.format(Locale.ROOT, " | %14s", times(ratio(cell, Contender.ROCKSDB_SEGMENT))));
                }
                if (ceiling) {
                    row.append(String.format(Locale.ROOT, " | %14s", times(ratio(cell, Contender.MEMORY))));
                }
                perContender(row, cell, "%.3f", Measurement::fsyncsPerOp);
                perContender(row, cell, "%.1f", Measurement::devicePerByte);
                out.println(row.toString().stripTrailing());
            }
        }
        if (measurements.stream().anyMatch(m -> !Double.isNaN(m.openMillis()))) {
            printReopens(out, shapes);
        }
        boolean paired = contenders.size() > 1 && passes.stream().anyMatch(p -> p.runs().size() > 1);
        if (paired && contenders.contains(Contender.ROCKSDB)) {
            printPairedRatios(out, shapes, Contender.ROCKSDB);
        }
        if (paired && contenders.contains(Contender.MEMORY)) {
            printPairedRatios(out, shapes, Contender.MEMORY);
        }
        passes.stream().flatMap(p -> p.runs().stream()).filter(m -> !m.ok())
                .forEach(m -> out.println("failed: " + m.cell() + " " + m.contender().label() + ": " + m.error()));
        passes.stream().flatMap(p -> p.runs().stream()).filter(m -> m.ok() && m.reopenError() != null)
                .forEach(m -> out.println("reopen failed: " + m.cell() + " " + m.contender().label() + ": " + m.reopenError()));
    }

    /** A block of one figure per contender: its name over the block, a short label over each column. */
    private void perContenderHeading(StringBuilder header, StringBuilder units, String figure) {
        header.append(String.format(Locale.ROOT, " | %-10s", figure));
        units.append(" |           ");
        for (Contender c : contenders) {
            header.append(String.format(Locale.ROOT, " %8s", ""));
            units.append(String.format(Locale.ROOT, " %8s", shortLabel(c)));
        }
    }

    /** The block's figure for each contender at the cell, {@code -} where it was not measured. */
    private void perContender(StringBuilder row, Cell cell, String format, ToDoubleFunction<Measurement> figure) {
        row.append(" |           ");
        for (Contender c : contenders) {
            row.append(String.format(Locale.ROOT, " %8s", find(cell, c).filter(Measurement::ok)
                    .map(figure::applyAsDouble).filter(v -> !v.isNaN())
                    .map(v -> String.format(Locale.ROOT, format, v)).orElse("-")));
        }
    }

    /**
     * The reopen after each run, per contender (medians): milliseconds from the first node's start
     * to every group led with its storages loaded ({@code open ms}) and to every node inited
     * ({@code init ms}), and the MiB the cluster's directory held, allocated on disk.
     */
    private void printReopens(PrintStream out, List<int[]> shapes) {
        for (int[] shape : shapes) {
            out.printf(Locale.ROOT, "%nreplicas %d, payload %d B: reopen after the run (stopped cleanly, same directories)%n",
                    shape[0], shape[1]);
            StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%6s %8s", "", ""));
            StringBuilder units = new StringBuilder(String.format(Locale.ROOT, "%6s %8s", "groups", "inflight"));
            perContenderHeading(header, units, "open ms");
            perContenderHeading(header, units, "init ms");
            perContenderHeading(header, units, "disk MiB");
            out.println(header.toString().stripTrailing());
            out.println(units.toString().stripTrailing());
            out.println("-".repeat(units.length()));
            for (Cell cell : cells(shape[0], shape[1])) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%6d %8d", cell.groups(), cell.inflight()));
                perContender(row, cell, "%.0f", Measurement::openMillis);
                perContender(row, cell, "%.0f", Measurement::initMillis);
                perContender(row, cell, "%.1f", m -> m.retainedBytes() / (1 << 20));
                out.println(row.toString().stripTrailing());
            }
        }
    }

    /**
     * Each other contender's committed ops/s over {@code baseline}'s, pass by pass: the median of
     * the per-pass ratios and its sign-test 95% interval (six passes or more give one). The passes
     * of a cell ran seconds apart, so their ratio carries less of the machine's drift than a ratio
     * of medians.
     */
    private void printPairedRatios(PrintStream out, List<int[]> shapes, Contender baseline) {
        List<Contender> others = contenders.stream().filter(c -> c != baseline).toList();
        int passCount = passes.stream().mapToInt(p -> p.runs().size()).max().orElse(0);
        for (int[] shape : shapes) {
            out.printf(Locale.ROOT, "%nreplicas %d, payload %d B: ops/s over %s's, paired by pass (%d passes): median [95%% interval]%n",
                    shape[0], shape[1], baseline.label(), passCount);
            StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%6s %8s", "groups", "inflight"));
            others.forEach(c -> header.append(String.format(Locale.ROOT, " | %22s", c.label())));
            out.println(header);
            out.println("-".repeat(header.length()));
            for (Cell cell : cells(shape[0], shape[1])) {
                Optional<Passes> base = passesOf(cell, baseline);
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%6d %8d", cell.groups(), cell.inflight()));
                for (Contender c : others) {
                    Optional<PairedRatio> r = base.flatMap(b -> passesOf(cell, c).flatMap(a -> a.over(b)));
                    row.append(String.format(Locale.ROOT, " | %22s", r.map(RaftBenchReport::paired).orElse("-")));
                }
                out.println(row);
            }
        }
    }

    /** {@code median [low-high]}, or {@code median (n pairs)} when there are too few pairs for an interval. */
    static String paired(PairedRatio r) {
        String median = PairedRatio.format(r.median());
        return Double.isNaN(r.low()) ? median + " (" + r.pairs() + " pairs)" : median + " [" + r.interval() + "]";
    }

    private Optional<Passes> passesOf(Cell cell, Contender contender) {
        return passes.stream().filter(p -> p.cell().equals(cell) && p.contender() == contender).findFirst();
    }

    private static String times(Optional<Double> ratio) {
        return ratio.map(r -> String.format(Locale.ROOT, "%.2fx", r)).orElse("-");
    }

    /** {@code contender}'s median ops/s over RocksDB's at the cell, when both were measured. */
    Optional<Double> ratio(Cell cell, Contender contender) {
        Optional<Measurement> rocks = find(cell, Contender.ROCKSDB).filter(Measurement::ok);
        Optional<Measurement> other = find(cell, contender).filter(Measurement::ok);
        if (rocks.isEmpty() || other.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(other.get().opsPerSec() / rocks.get().opsPerSec());
    }

    /** The best commit-log contender's ops/s over RocksDB's at the cell, when both were measured. */
    Optional<Double> ratio(Cell cell) {
        return contenders.stream().filter(Contender::commitLog).map(c -> ratio(cell, c)).flatMap(Optional::stream)
                .max(Double::compare);
    }

    void writeCsv(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(CSV_HEADER);
        for (Measurement m : measurements) {
            Cell c = m.cell();
            lines.add(String.format(Locale.ROOT, "%d,%d,%d,%d,%s,%.1f,%.3f,%.3f,%.4f,%d,%s,%s,%s,%s,%s,%s,%s", c.replicas(),
                    c.payload(), c.groups(), c.inflight(), m.contender().label(), m.opsPerSec(), m.p50Millis(), m.p99Millis(),
                    m.fsyncsPerOp(), m.failures(), quoted(m.error()),
                    csv("%.3f", m.devicePerByte()), csv("%.1f", m.openMillis()), csv("%.1f", m.initMillis()),
                    csv("%.0f", m.retainedBytes()), csv("%.0f", m.retainedApparentBytes()), quoted(m.reopenError())));
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.write(file, lines);
    }

    /** A CSV text field: empty for none, else in double quotes (any inside turned to single ones). */
    private static String quoted(String text) {
        return text == null ? "" : '"' + text.replace('"', '\'') + '"';
    }

    /** A CSV field: empty where the figure was not measured. */
    private static String csv(String format, double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, format, v);
    }

    private List<Cell> cells(int replicas, int payload) {
        return measurements.stream().map(Measurement::cell)
                .filter(c -> c.replicas() == replicas && c.payload() == payload).distinct().toList();
    }

    private Optional<Measurement> find(Cell cell, Contender contender) {
        return measurements.stream().filter(m -> m.cell().equals(cell) && m.contender() == contender).findFirst();
    }

    private static String shortLabel(Contender c) {
        return switch (c) {
            case ROCKSDB -> "rocksdb";
            case ROCKSDB_SEGMENT -> "segment";
            case COMMITLOG_ADAPTIVE -> "adaptive";
            case COMMITLOG_BATCH -> "batch";
            case MEMORY -> "memory";
        };
    }
}
