package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import dev.commitlog.testkit.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves with the kernel's own record that Batch mode flushes synchronously and acknowledges only
 * after a flush: runs {@link StraceChild} under {@code strace -f -ttt -T -e trace=msync,fdatasync,fsync,write,pwrite64}
 * and checks that (1) flushes are fdatasync (and any msync is MS_SYNC, never MS_ASYNC), and (2) for every acknowledged
 * append, a sync call started after the append began and returned before the acknowledgment. A
 * control run in Periodic mode (which acknowledges before flushing) must fail check (2), showing
 * that the check can fail. (3) The clean close that follows the last acknowledgment writes the
 * segment's 64-byte header (the exact durable mark) and fdatasyncs that file.
 */
class StraceFlushTest {
    private static final Pattern LINE = Pattern.compile("^(\\d+)\\s+(\\d+\\.\\d+)\\s+(.*)$");
    private static final Pattern DURATION = Pattern.compile("<(\\d+\\.\\d+)>\\s*$");
    private static final Pattern MARK = Pattern.compile("write\\(\\d+, \"([AB]) (\\d+) (\\d+)\\\\n\"");
    /** pwrite64(fd, "bytes"..., count, offset) = written */
    private static final Pattern PWRITE = Pattern.compile("^pwrite64\\((\\d+), .*, (\\d+), (\\d+)\\)\\s+=\\s+(-?\\d+)");
    private static final Pattern FD = Pattern.compile("^\\w+\\((\\d+)[,)]");

    @TempDir
    Path dir;

    /** A successful sync call; {@code fd} is -1 for msync. */
    record SyncCall(String call, int fd, double start, double end) {
    }

    /** A successful pwrite64 of {@code count} bytes at {@code offset}. */
    record PositionalWrite(int fd, int count, long offset, double start, double end) {
    }

    record Trace(List<SyncCall> syncs, Map<String, Double> begun, Map<String, Double> acked, List<String> asyncFlushes,
                 List<PositionalWrite> pwrites) {
    }

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void waitingModesAcknowledgeOnlyAfterASynchronousFlush(SyncMode mode) throws Exception {
        Trace trace = traceChild(mode, 4, 150);
        assertTrue(trace.asyncFlushes().isEmpty(), "asynchronous msync calls: " + trace.asyncFlushes());
        assertTrue(trace.syncs().stream().anyMatch(s -> s.call().equals("fdatasync")), "the log flushes with fdatasync");
        assertEquals(600, trace.acked().size(), "every append was acknowledged in the trace");
        List<String> uncovered = uncoveredAcks(trace);
        assertTrue(uncovered.isEmpty(), uncovered.size() + " acknowledgments without a covering flush, e.g. " + uncovered.stream().limit(5).toList());
        // 600 records of 112 bytes end past the segment's first 4 KiB: no flush carried the exact mark.
        double lastAck = trace.acked().values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        List<PositionalWrite> headerWrites = trace.pwrites().stream()
                .filter(w -> w.start() >= lastAck && w.offset() == 0 && w.count() == 64).toList();
        assertTrue(headerWrites.stream().anyMatch(w -> trace.syncs().stream()
                        .anyMatch(sync -> sync.call().equals("fdatasync") && sync.fd() == w.fd() && sync.start() >= w.end())),
                "the clean close writes the header (the exact durable mark) and then fdatasyncs that file; header writes after the "
                        + "last acknowledgment: " + headerWrites);
    }

    @Test
    void controlPeriodicModeAcknowledgesBeforeAnyFlushSoTheCheckFails() throws Exception {
        Trace trace = traceChild(SyncMode.PERIODIC, 2, 50);
        assertEquals(100, trace.acked().size());
        assertFalse(uncoveredAcks(trace).isEmpty(), "the covering-flush check must reject a mode that does not wait for flushes");
    }

    /**
     * Acknowledgments with no fdatasync (the engine's flush) that began after the append began and
     * ended before the ack. Not fsync: the segment allocator fsyncs the next segment's file while
     * the first appends are in flight, which must not pass for their flush.
     */
    private static List<String> uncoveredAcks(Trace trace) {
        List<String> uncovered = new ArrayList<>();
        for (Map.Entry<String, Double> ack : trace.acked().entrySet()) {
            double begun = trace.begun().get(ack.getKey());
            boolean covered = trace.syncs().stream()
                    .anyMatch(s -> s.call().equals("fdatasync") && s.start() >= begun && s.end() <= ack.getValue());
            if (!covered) {
                uncovered.add(ack.getKey());
            }
        }
        return uncovered;
    }

    private Trace traceChild(SyncMode mode, int threads, int perThread) throws Exception {
        Path traceFile = dir.resolve("strace.txt");
        Path marks = dir.resolve("marks.txt");
        List<String> command = new ArrayList<>(List.of("strace", "-f", "-ttt", "-T", "-s", "64",
                "-e", "trace=msync,fdatasync,fsync,write,pwrite64", "-o", traceFile.toString()));
        command.addAll(ChildJvm.command(StraceChild.class, dir.resolve("log").toString(), mode.name(),
                Integer.toString(threads), Integer.toString(perThread), marks.toString()));
        Process process = ChildJvm.start(command);
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "child finished");
        assertEquals(0, process.exitValue(), "child (under strace) failed: " + output);
        return parse(traceFile);
    }

    /** Parses strace -f -ttt -T output, joining "unfinished ..." and "resumed" halves by pid. */
    private static Trace parse(Path traceFile) throws IOException {
        List<SyncCall> syncs = new ArrayList<>();
        Map<String, Double> begun = new HashMap<>();
        Map<String, Double> acked = new HashMap<>();
        List<String> async = new ArrayList<>();
        List<PositionalWrite> pwrites = new ArrayList<>();
        Map<String, Double> unfinishedStart = new HashMap<>();
        Map<String, String> unfinishedText = new HashMap<>();
        for (String raw : Files.readAllLines(traceFile)) {
            Matcher m = LINE.matcher(raw);
            if (!m.matches()) {
                continue;
            }
            String pid = m.group(1);
            double time = Double.parseDouble(m.group(2));
            String text = m.group(3);
            double start;
            double end;
            String call;
            if (text.contains("<unfinished ...>")) {
                unfinishedStart.put(pid, time);
                unfinishedText.put(pid, text);
                continue;
            } else if (text.startsWith("<...")) {
                if (!unfinishedStart.containsKey(pid)) {
                    continue;
                }
                start = unfinishedStart.remove(pid);
                end = time;
                // "pwrite64(5, ..., 64, 0 <unfinished ...>" and "<... pwrite64 resumed>) = 64 <0.000010>"
                text = unfinishedText.remove(pid).replace(" <unfinished ...>", "") + text.replaceFirst("^<\\.\\.\\. \\w+ resumed>\\s*", "");
            } else {
                start = time;
                Matcher d = DURATION.matcher(text);
                end = d.find() ? time + Double.parseDouble(d.group(1)) : time;
            }
            call = text.substring(0, Math.max(0, text.indexOf('(')));
            switch (call) {
                case "msync" -> {
                    if (!text.contains("MS_SYNC") || text.contains("MS_ASYNC")) {
                        async.add(text);
                    }
                    if (text.contains("= 0")) {
                        syncs.add(new SyncCall(call, -1, start, end));
                    }
                }
                case "fdatasync", "fsync" -> {
                    Matcher fd = FD.matcher(text);
                    if (text.contains("= 0") && fd.find()) {
                        syncs.add(new SyncCall(call, Integer.parseInt(fd.group(1)), start, end));
                    }
                }
                case "pwrite64" -> {
                    Matcher w = PWRITE.matcher(text);
                    if (w.find() && w.group(2).equals(w.group(4))) {
                        pwrites.add(new PositionalWrite(Integer.parseInt(w.group(1)), Integer.parseInt(w.group(2)),
                                Long.parseLong(w.group(3)), start, end));
                    }
                }
                case "write" -> {
                    Matcher mark = MARK.matcher(text);
                    if (mark.find()) {
                        String key = mark.group(2) + "/" + mark.group(3);
                        if (mark.group(1).equals("B")) {
                            begun.put(key, end); // the append began after this write returned
                        } else {
                            acked.put(key, start); // and was acknowledged before this write started
                        }
                    }
                }
                default -> { }
            }
        }
        return new Trace(syncs, begun, acked, async, pwrites);
    }
}
