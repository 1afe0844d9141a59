package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.DiskAccessMode;
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
 * segment's 64-byte header (the exact durable mark) and fdatasyncs that file. (4) With
 * {@code commitlog_disk_access_mode: direct}, the segment files are opened with {@code O_DIRECT},
 * new ones get their zeros with {@code O_DIRECT} too,
 * every write to them is of whole 4 KiB blocks at block offsets, only a flush carrying the
 * header's block apart from its range writes through the page cache (through the file's other
 * descriptor), such flushes come at most once per {@code commitlog_durable_mark_interval}, and every acknowledgment comes after a write to a segment file and then an
 * fdatasync of that same file, both begun after the append: the direct write alone is not what
 * acknowledges (CASSANDRA-20692).
 */
class StraceFlushTest {
    private static final Pattern LINE = Pattern.compile("^(\\d+)\\s+(\\d+\\.\\d+)\\s+(.*)$");
    private static final Pattern DURATION = Pattern.compile("<(\\d+\\.\\d+)>\\s*$");
    private static final Pattern MARK = Pattern.compile("write\\(\\d+, \"([AB]) (\\d+) (\\d+)\\\\n\"");
    /** pwrite64(fd, "bytes"..., count, offset) = written */
    private static final Pattern PWRITE = Pattern.compile("^pwrite64\\((\\d+), .*, (\\d+), (\\d+)\\)\\s+=\\s+(-?\\d+)");
    private static final Pattern FD = Pattern.compile("^\\w+\\((\\d+)[,)]");
    /** openat(AT_FDCWD, "path", flags) = fd */
    private static final Pattern OPENAT = Pattern.compile("^openat\\(\\w+, \"([^\"]*)\", ([A-Z_|]+)(?:, \\d+)?\\)\\s+=\\s+(\\d+)");
    /** lseek(fd, offset, SEEK_SET) = offset */
    private static final Pattern LSEEK_SET = Pattern.compile("^lseek\\((\\d+), (\\d+), SEEK_SET\\)\\s+=\\s+\\d+");
    /** writev(fd, [...], count) = written */
    private static final Pattern WRITEV = Pattern.compile("^writev\\((\\d+), .*\\)\\s+=\\s+(-?\\d+)");
    private static final int BLOCK = 4096;
    private static final long DEFAULT_MARK_INTERVAL_MS = 10;
    /** Long against a flush under strace, so the interval, not the machine's speed, decides how often the mark rides along. */
    private static final long MARK_INTERVAL_MS = 50;

    @TempDir
    Path dir;

    /** A successful sync call; {@code fd} is -1 for msync. */
    record SyncCall(String call, int fd, double start, double end) {
    }

    /** A successful pwrite64 of {@code count} bytes at {@code offset}. */
    record PositionalWrite(int fd, int count, long offset, double start, double end) {
    }

    /** A write to a segment file open for writing: its path, whether through its O_DIRECT descriptor, and which thread. */
    record SegmentWrite(String path, boolean direct, String pid, int fd, int count, long offset, double start, double end) {
    }

    /** A segment file's descriptor open for writing. */
    record SegmentFd(String path, boolean direct) {
    }

    record Trace(List<SyncCall> syncs, Map<String, Double> begun, Map<String, Double> acked, List<String> asyncFlushes,
                 List<PositionalWrite> pwrites, List<SegmentWrite> segmentWrites, List<SyncCall> segmentSyncs, int directOpens,
                 List<String> newFileFlags) {
        List<SegmentWrite> directWrites() {
            return segmentWrites.stream().filter(SegmentWrite::direct).toList();
        }
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

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void directModeWritesWholeBlocksAndStillFdatasyncsBeforeEveryAcknowledgment(SyncMode mode) throws Exception {
        Trace trace = traceChild(mode, 4, 150, DiskAccessMode.DIRECT, MARK_INTERVAL_MS);
        assertEquals(600, trace.acked().size(), "every append was acknowledged in the trace");
        assertTrue(trace.directOpens() > 0, "segment files are opened with O_DIRECT");
        assertFalse(trace.newFileFlags().isEmpty(), "new segment files were created");
        assertTrue(trace.newFileFlags().stream().allMatch(flags -> flags.contains("O_DIRECT")),
                "new segment files get their zeros with O_DIRECT, leaving no page-cache copy: " + trace.newFileFlags());
        List<SegmentWrite> direct = trace.directWrites();
        assertFalse(direct.isEmpty(), "the flushes write to the O_DIRECT files");
        List<SegmentWrite> unaligned = trace.segmentWrites().stream()
                .filter(w -> w.offset() % BLOCK != 0 || w.count() % BLOCK != 0).toList();
        assertTrue(unaligned.isEmpty(), "segment writes not of whole blocks at block offsets: " + unaligned);
        // Through the page cache only a flush that carries the header's block apart from its range: block 0, then the range.
        List<SegmentWrite> buffered = trace.segmentWrites().stream().filter(w -> !w.direct()).toList();
        List<SegmentWrite> stray = new ArrayList<>();
        for (int i = 0; i < buffered.size(); i++) {
            SegmentWrite w = buffered.get(i);
            SegmentWrite before = i > 0 ? buffered.get(i - 1) : null;
            boolean headerBlock = w.offset() == 0 && w.count() == BLOCK;
            boolean afterItsHeaderBlock = before != null && before.offset() == 0 && before.count() == BLOCK && before.fd() == w.fd()
                    && before.pid().equals(w.pid()) && w.offset() > BLOCK;
            if (!headerBlock && !afterItsHeaderBlock) {
                stray.add(w);
            }
        }
        assertTrue(stray.isEmpty(), "page-cache writes to a segment other than a header block and the range after it: " + stray);
        assertFalse(buffered.isEmpty(), "a run this long carries the durable mark past the first blocks at least once");
        // Such a flush carries the durable mark, at most once per commitlog_durable_mark_interval. The
        // engine decides before its write, and a thread preempted between the two on a loaded machine
        // can bring two writes closer than the interval; their number over the run cannot pass one
        // per interval (plus the first, and one for a decision made just before the first write).
        List<Double> headerBlockWrites = buffered.stream().filter(w -> w.offset() == 0).map(SegmentWrite::start).sorted().toList();
        double runMs = (trace.segmentWrites().stream().mapToDouble(SegmentWrite::start).max().orElse(0)
                - trace.segmentWrites().stream().mapToDouble(SegmentWrite::start).min().orElse(0)) * 1000;
        long allowed = (long) (runMs / MARK_INTERVAL_MS) + 2;
        assertTrue(headerBlockWrites.size() <= allowed, headerBlockWrites.size() + " page-cache flushes of the header's block in "
                + Math.round(runMs) + " ms of flushes, more than one per " + MARK_INTERVAL_MS + " ms mark interval (at most " + allowed
                + "): " + headerBlockWrites.stream().limit(8).toList());
        System.out.printf("direct mode, %s: %d direct writes, %d page-cache writes (%d with the header's block)%n", mode, direct.size(),
                buffered.size(), headerBlockWrites.size());
        List<String> uncovered = new ArrayList<>();
        for (Map.Entry<String, Double> ack : trace.acked().entrySet()) {
            double begun = trace.begun().get(ack.getKey());
            boolean covered = trace.segmentWrites().stream().anyMatch(w -> w.start() >= begun && trace.segmentSyncs().stream()
                    .anyMatch(s -> s.call().equals(w.path()) && s.start() >= w.end() && s.end() <= ack.getValue()));
            if (!covered) {
                uncovered.add(ack.getKey());
            }
        }
        assertTrue(uncovered.isEmpty(), uncovered.size() + " acknowledgments without a write to a segment file and then an fdatasync "
                + "of that file, both after the append began, e.g. " + uncovered.stream().limit(5).toList());
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
        return traceChild(mode, threads, perThread, DiskAccessMode.STANDARD, DEFAULT_MARK_INTERVAL_MS);
    }

    private Trace traceChild(SyncMode mode, int threads, int perThread, DiskAccessMode access, long markIntervalMs) throws Exception {
        Path traceFile = dir.resolve("strace.txt");
        Path marks = dir.resolve("marks.txt");
        List<String> command = new ArrayList<>(List.of("strace", "-f", "-ttt", "-T", "-s", "64",
                "-e", "trace=msync,fdatasync,fsync,write,pwrite64,openat,close,lseek,writev", "-o", traceFile.toString()));
        command.addAll(ChildJvm.command(StraceChild.class, dir.resolve("log").toString(), mode.name(),
                Integer.toString(threads), Integer.toString(perThread), marks.toString(), access.name(), Long.toString(markIntervalMs)));
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
        List<SegmentWrite> segmentWrites = new ArrayList<>();
        List<SyncCall> segmentSyncs = new ArrayList<>(); // fdatasync of a segment file, its path in place of the call's name
        Map<Integer, SegmentFd> segmentFds = new HashMap<>(); // segment files open for writing, by descriptor
        Map<Integer, Long> offsets = new HashMap<>(); // their file offsets (lseek, writev)
        int directOpens = 0;
        List<String> newFileFlags = new ArrayList<>(); // the open flags of each new segment file (.tmp)
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
                        int descriptor = Integer.parseInt(fd.group(1));
                        syncs.add(new SyncCall(call, descriptor, start, end));
                        SegmentFd segment = segmentFds.get(descriptor);
                        if (segment != null && call.equals("fdatasync")) {
                            segmentSyncs.add(new SyncCall(segment.path(), descriptor, start, end));
                        }
                    }
                }
                case "pwrite64" -> {
                    Matcher w = PWRITE.matcher(text);
                    if (w.find() && w.group(2).equals(w.group(4))) {
                        PositionalWrite write = new PositionalWrite(Integer.parseInt(w.group(1)), Integer.parseInt(w.group(2)),
                                Long.parseLong(w.group(3)), start, end);
                        pwrites.add(write);
                        SegmentFd segment = segmentFds.get(write.fd());
                        if (segment != null) {
                            segmentWrites.add(new SegmentWrite(segment.path(), segment.direct(), pid, write.fd(), write.count(),
                                    write.offset(), start, end));
                        }
                    }
                }
                case "openat" -> {
                    Matcher o = OPENAT.matcher(text);
                    if (o.find() && o.group(1).endsWith(".log") && o.group(2).contains("O_RDWR")) {
                        boolean direct = o.group(2).contains("O_DIRECT");
                        segmentFds.put(Integer.parseInt(o.group(3)), new SegmentFd(o.group(1), direct));
                        offsets.put(Integer.parseInt(o.group(3)), 0L);
                        directOpens += direct ? 1 : 0;
                    } else if (o.find(0) && o.group(1).endsWith(".log.tmp") && o.group(2).contains("O_CREAT")) {
                        newFileFlags.add(o.group(2));
                    }
                }
                case "close" -> {
                    Matcher fd = FD.matcher(text);
                    if (fd.find()) {
                        segmentFds.remove(Integer.parseInt(fd.group(1)));
                    }
                }
                case "lseek" -> {
                    Matcher l = LSEEK_SET.matcher(text);
                    if (l.find() && segmentFds.containsKey(Integer.parseInt(l.group(1)))) {
                        offsets.put(Integer.parseInt(l.group(1)), Long.parseLong(l.group(2)));
                    }
                }
                case "writev" -> {
                    Matcher w = WRITEV.matcher(text);
                    int fd = w.find() ? Integer.parseInt(w.group(1)) : -1;
                    SegmentFd segment = segmentFds.get(fd);
                    if (segment != null && Integer.parseInt(w.group(2)) > 0) {
                        long offset = offsets.get(fd);
                        segmentWrites.add(new SegmentWrite(segment.path(), segment.direct(), pid, fd, Integer.parseInt(w.group(2)), offset,
                                start, end));
                        offsets.put(fd, offset + Integer.parseInt(w.group(2)));
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
        return new Trace(syncs, begun, acked, async, pwrites, segmentWrites, segmentSyncs, directOpens, newFileFlags);
    }
}
