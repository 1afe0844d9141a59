package dev.commitlog.bench.report;

import dev.commitlog.bench.sweep.CellResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The sweep as markdown: first the CASSANDRA-13530-shaped table (rows: threads; columns: modes
 * and peers; ops/s), then ratios of each commit-log mode to each peer it is compared with, the
 * brief's targets as this pass measured them, latency, flush, device-bytes and CPU tables, the
 * asynchronous section, and the CSV. Every figure is one measurement of its cell.
 */
public final class MarkdownReport {

    /** What the device-bytes table counts, under it. */
    static final String DEVICE_NOTE = "Bytes the device under the cells took during the window (every writer on the "
            + "machine, journal included; the header gives the rate it took with nothing appended, before and after the "
            + "cells) over the payload bytes appended in the window; in parentheses, over the commit log's aligned frames. "
            + "Not measured (-) for columns that return before their flush: their bytes reach the device after a short window.";

    /** What the CPU table counts, under it. */
    static final String CPU_NOTE = "The process's CPU time over the window (user + system, every thread: writers, the "
            + "system's own threads, the collector and the compiler) over the appends counted in it. One cell runs at a time, "
            + "so the window's CPU is its own; the clock counts 10 ms ticks.";

    private MarkdownReport() {
    }

    public static String render(SweepResults r) {
        boolean closedLoop = !r.columns().isEmpty();   // empty with --modes none --peers none
        StringBuilder out = new StringBuilder(closedLoop ? "## Sweep: appends per second, closed loop\n\n"
                : "## Sweep: asynchronous appends per second\n\n");
        r.header().forEach(line -> out.append(line).append("  \n"));
        out.append('\n');

        if (closedLoop) {
            out.append("### Throughput (ops/s)\n\n");
            table(out, r, r.columns(), c -> Numbers.grouped(c.opsPerSec()));
            List<String> ablations = r.columns().stream().filter(Column::ablation).map(Column::label).toList();
            if (!ablations.isEmpty()) {
                out.append("\nAblation columns (one mechanism switched off; not in the ratios or targets): ")
                        .append(String.join(", ", ablations)).append(".\n");
            }

            out.append("\n### Ratios (ops/s of each durable commit-log mode over each durable peer, and periodic over chronicle-queue; same run)\n\n");
            ratios(out, r);
            out.append('\n');
        }

        out.append("### Targets (from the brief, as this pass measured them)\n\n");
        out.append("| target | measured | floor | this pass |\n|---|---|---|---|\n");
        for (Target t : TargetReport.evaluate(r)) {
            out.append("| ").append(t.name()).append(" | ").append(t.measured()).append(" | ")
                    .append(t.floor()).append(" | ").append(t.verdict()).append(" |\n");
        }
        out.append('\n').append(TargetReport.PAIR_NOTE).append('\n');

        if (closedLoop) {
            out.append("\n### p99 append latency (us)\n\n");
            table(out, r, r.columns(), c -> Numbers.micros(c.p99Us()));

            List<Column> flushing = measuring(r, CellResult::flushesPerSec);
            if (!flushing.isEmpty()) {
                out.append("\n### Records per flush (flushes/s), from each system's own counters\n\n");
                table(out, r, flushing, MarkdownReport::recordsPerFlush);
            }

            List<Column> onDevice = measuring(r, CellResult::devicePerByte);
            if (!onDevice.isEmpty()) {
                out.append("\n### Device bytes written per payload byte appended (per framed byte)\n\n");
                table(out, r, onDevice, MarkdownReport::devicePerByte);
                out.append('\n').append(DEVICE_NOTE).append('\n');
            }

            List<Column> cpu = measuring(r, CellResult::cpuUsPerRecord);
            if (!cpu.isEmpty()) {
                out.append("\n### CPU per record (us, process user + system)\n\n");
                table(out, r, cpu, c -> Numbers.micros(c.cpuUsPerRecord()));
                out.append('\n').append(CPU_NOTE).append('\n');
            }
        }

        if (!r.asyncCells().isEmpty()) {
            out.append("\n### Asynchronous appends (appendAsync, up to ").append(r.asyncInFlight())
                    .append(" in flight per submitting thread)\n\n");
            asyncTable(out, r.asyncCells());
        }

        out.append("\n### CSV\n\n```csv\n").append(CsvWriter.render(r.allCells())).append("```\n");
        return out.toString();
    }

    /** Renders the report into {@code file} and returns it, so that a caller printing it too renders once. */
    public static String write(Path file, SweepResults r) throws IOException {
        String report = render(r);
        Files.writeString(OutputFiles.prepare(file), report);
        return report;
    }

    private static void asyncTable(StringBuilder out, List<CellResult> cells) {
        out.append("| submitting threads | mode | durable appends/s | p50 submit to completion (us) "
                + "| p99 (us) | records per flush (flushes/s) | device bytes per payload byte (per framed byte) "
                + "| CPU per record (us) |\n"
                + "|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (CellResult c : cells) {
            out.append("| ").append(c.threads()).append(" | ").append(c.mode()).append(" | ")
                    .append(Numbers.grouped(c.opsPerSec())).append(" | ").append(Numbers.micros(c.p50Us()))
                    .append(" | ").append(Numbers.micros(c.p99Us())).append(" | ").append(recordsPerFlush(c))
                    .append(" | ").append(devicePerByte(c)).append(" | ").append(Numbers.micros(c.cpuUsPerRecord()))
                    .append(" |\n");
        }
    }

    /** The columns with {@code figure} measured (not NaN) in at least one of their cells. */
    private static List<Column> measuring(SweepResults r, ToDoubleFunction<CellResult> figure) {
        return r.columns().stream()
                .filter(c -> r.cells().stream().anyMatch(
                        cell -> cell.label().equals(c.label()) && !Double.isNaN(figure.applyAsDouble(cell))))
                .toList();
    }

    /** {@code 2.01 (1.80)}: per payload byte, then per framed byte where the framing is known. */
    private static String devicePerByte(CellResult c) {
        String perByte = Numbers.fixed(c.devicePerByte(), 2);
        String perFrame = Numbers.fixed(c.devicePerFramedByte(), 2);
        return perByte.isEmpty() ? "-" : perFrame.isEmpty() ? perByte : perByte + " (" + perFrame + ")";
    }

    private static String recordsPerFlush(CellResult c) {
        String perFlush = Numbers.fixed(c.recordsPerFlush(), 1);
        return perFlush.isEmpty() ? "-" : perFlush + " (" + Numbers.grouped(c.flushesPerSec()) + "/s)";
    }

    private static void table(StringBuilder out, SweepResults r, List<Column> columns,
                              Function<CellResult, String> value) {
        out.append("| threads |");
        columns.forEach(c -> out.append(' ').append(c.label()).append(" |"));
        out.append("\n|---:|");
        columns.forEach(c -> out.append("---:|"));
        out.append('\n');
        for (int t : r.threads()) {
            out.append("| ").append(t).append(" |");
            for (Column c : columns) {
                out.append(' ').append(r.cell(c.label(), t).map(value).orElse("-")).append(" |");
            }
            out.append('\n');
        }
    }

    /**
     * Each durable commit-log mode over each durable peer, plus Periodic over Chronicle Queue:
     * like is compared with like (Periodic acknowledges before the flush, so it is compared only
     * with the other system that does).
     */
    private static void ratios(StringBuilder out, SweepResults r) {
        List<String[]> pairs = new ArrayList<>();
        List<Column> modes = TargetReport.durableCommitLogColumns(r);
        List<Column> durablePeers = r.columns().stream().filter(c -> !c.commitLog() && c.durable()).toList();
        for (Column mode : modes) {
            for (Column peer : durablePeers) {
                pairs.add(new String[] {mode.label(), peer.label()});
            }
        }
        if (r.column(TargetReport.PERIODIC).isPresent() && r.column(TargetReport.CHRONICLE).isPresent()) {
            pairs.add(new String[] {TargetReport.PERIODIC, TargetReport.CHRONICLE});
        }
        if (pairs.isEmpty()) {
            out.append("(no commit-log mode and peer in this run)\n");
            return;
        }
        out.append("| threads |");
        pairs.forEach(p -> out.append(' ').append(p[0]).append(" / ").append(p[1]).append(" |"));
        out.append("\n|---:|");
        pairs.forEach(p -> out.append("---:|"));
        out.append('\n');
        for (int t : r.threads()) {
            out.append("| ").append(t).append(" |");
            for (String[] p : pairs) {
                Optional<CellResult> a = r.cell(p[0], t);
                Optional<CellResult> b = r.cell(p[1], t);
                String v = a.isPresent() && b.isPresent()
                        ? Numbers.ratio(a.get().opsPerSec() / b.get().opsPerSec()) : "-";
                out.append(' ').append(v).append(" |");
            }
            out.append('\n');
        }
    }
}
