package dev.commitlog.tools;

import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.repair.LogInspector;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code stats DIR}: segment files, bytes, records, oldest and newest position and the durable
 * marks, read as recovery does under {@code skip_corrupt} (damage is counted, not fatal). Read-only.
 */
@Command(name = "stats", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Print the segment files (id, base position, size, durable mark, records), bytes on disk, records, the oldest "
                + "and newest record positions, where the log ends and the damaged frames met. Read-only; safe on a live log.",
                "The end of the log is the position just past its last valid record (that record's position plus its frame size).",
                "Exit code 0 whatever it met (use verify for a verdict).",
                KeyOptions.HELP})
final class StatsCommand implements Callable<Integer> {
    @Mixin
    LogDirectory logDirectory;

    @Mixin
    KeyOptions keyOptions;

    @Override
    public Integer call() throws IOException {
        Path directory = logDirectory.checked();
        PrintWriter out = logDirectory.out();
        ToolKeys keys = keyOptions.keys();
        List<LogInspector.SegmentInfo> segments = keys.segments(directory);
        Counter counter = new Counter();
        LogInspector.Summary summary = keys.walk(directory, 0, ReplayPolicy.SKIP_CORRUPT, counter);
        LogSpan span = counter.span;

        long bytes = segments.stream().mapToLong(LogInspector.SegmentInfo::fileSize).sum();
        out.println("directory        " + directory.toAbsolutePath());
        out.println("segment files    " + segments.size() + ", " + bytes + " bytes");
        for (LogInspector.SegmentInfo segment : segments) {
            out.println("  " + describe(segment, counter.perSegment, span.end()));
        }
        out.println("records          " + span.records());
        out.println("oldest position  " + (span.records() == 0 ? "none (no records)" : span.first() + " (the first record)"));
        out.println("newest position  " + (span.records() == 0 ? "none (no records)" : span.last() + " (the last record)"));
        out.println("end of log       " + span.describeEnd());
        out.println("durable mark     " + summary.tailFrom() + " (highest of all segments: damage below it is corruption, "
                + "at or after it a torn tail)");
        out.println("damaged frames   " + summary.damaged() + (summary.damaged() == 0 ? "" : " (run dump or verify to see them)"));
        return ExitCode.OK;
    }

    private static String describe(LogInspector.SegmentInfo segment, Map<Long, Long> perSegment, long endPosition) {
        String name = segment.ref().path().getFileName().toString();
        SegmentHeader header = segment.header();
        if (header == null) {
            return name + "  " + segment.fileSize() + " bytes  HEADER DAMAGED: " + segment.headerProblem();
        }
        return name + "  id " + header.segmentId() + "  base " + header.basePosition() + "  size " + header.segmentSize()
                + "  durable mark " + header.durableMark() + "  records " + perSegment.getOrDefault(header.segmentId(), 0L)
                + (header.basePosition() >= endPosition ? "  (after the end of the log: usually the next segment, prepared empty, which open reuses; open deletes any other)" : "");
    }

    private static final class Counter implements LogInspector.Observer {
        private final LogSpan span = new LogSpan();
        private final Map<Long, Long> perSegment = new HashMap<>();
        private long segmentId;

        @Override
        public void onSegment(SegmentRef ref, SegmentHeader header) {
            span.onSegment(ref, header);
            segmentId = header.segmentId();
        }

        @Override
        public boolean onRecord(long position, ByteBuffer payload) {
            perSegment.merge(segmentId, 1L, Long::sum);
            return span.onRecord(position, payload);
        }
    }
}
