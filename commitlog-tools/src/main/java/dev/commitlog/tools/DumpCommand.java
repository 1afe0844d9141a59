package dev.commitlog.tools;

import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.repair.LogInspector;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dump DIR}: every record with its position, length and checksum status, and every piece
 * of damage met on the way, like pg_waldump or Kafka's DumpLogSegments. Reads as recovery does
 * under {@code skip_corrupt}: damage is shown and the walk goes on at the next valid frame; the
 * walk ends where recovery would end the log. Read-only.
 *
 * <p>{@code --from} must lie within the log, from its start to its end ({@link LogSpan}); a position
 * past the end or below the start is refused with both bounds, so that "nothing shown" always means
 * "nothing there", never "asked for the wrong place".
 */
@Command(name = "dump", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Print every record (position, payload length, frame size, checksum status) and every piece of damage met "
                + "(position, file, offset, reason), in log order, up to where recovery would end the log. Read-only; safe on a live log.",
                "The end of the log is the position just past its last valid record (that record's position plus its frame size).",
                "Exit code 0 whatever it met (use verify for a verdict); 2 for a --from outside the log.",
                KeyOptions.HELP})
final class DumpCommand implements Callable<Integer> {
    @Mixin
    LogDirectory logDirectory;

    @Mixin
    KeyOptions keyOptions;

    @Option(names = "--from", paramLabel = "POSITION", description = "start at the first record at or after this log position, "
            + "from the start of the log (the oldest segment's base position) to its end (default: the oldest record)")
    Long from;

    @Option(names = "--limit", paramLabel = "N", description = "print at most N records")
    long limit = Long.MAX_VALUE;

    @Option(names = "--hex", description = "also print each payload in hex and text")
    boolean hex;

    @Override
    public Integer call() throws IOException {
        Path directory = logDirectory.checked();
        if (from != null && from < 0) {
            throw logDirectory.refuse("--from must be a log position (>= 0), not " + from);
        }
        if (limit < 1) {
            throw logDirectory.refuse("--limit must be at least 1, not " + limit);
        }
        ToolKeys keys = keyOptions.keys();
        LogSpan span = LogSpan.read(directory, keys);
        if (from != null) {
            checkWithin(span, from);
        }
        PrintWriter out = logDirectory.out();
        Printer printer = new Printer(out, from == null ? 0 : from);
        LogInspector.Summary summary = keys.walk(directory, printer.from, ReplayPolicy.SKIP_CORRUPT, printer);
        if (summary.stopped()) {
            out.println("stopped after " + printer.shown + " records (--limit " + limit + ")");
        } else {
            // A live log may have grown since the span was read: the records shown then end later.
            long end = Math.max(span.end(), printer.span.records() > 0 ? printer.span.end() : -1);
            out.println("end of log at position " + end + ": " + printer.shown + " records shown, " + printer.damaged + " damaged frames met");
        }
        return ExitCode.OK;
    }

    /** Refuses a {@code --from} outside the log, naming both bounds. */
    private void checkWithin(LogSpan span, long position) {
        String range = "the log holds positions " + span.start() + " (its start) to " + span.end() + " (its end: just past its last"
                + " valid record)";
        if (position > span.end()) {
            throw logDirectory.refuse("--from " + position + " is past the end of the log: " + range + "; nothing is there to dump");
        }
        if (position < span.start()) {
            throw logDirectory.refuse("--from " + position + " is below the start of the log: " + range + "; positions below "
                    + span.start() + " were discarded. Leave --from out to dump from the oldest record");
        }
    }

    private final class Printer implements LogInspector.Observer {
        private final PrintWriter out;
        private final long from;
        /** The records shown. */
        private final LogSpan span = new LogSpan();
        private long shown;
        private long damaged;

        Printer(PrintWriter out, long from) {
            this.out = out;
            this.from = from;
        }

        @Override
        public void onSegment(SegmentRef ref, SegmentHeader header) {
            out.println("segment " + ref.path().getFileName() + ": id " + header.segmentId() + ", base position " + header.basePosition()
                    + ", size " + header.segmentSize() + ", durable mark " + header.durableMark());
        }

        @Override
        public boolean onRecord(long position, ByteBuffer payload) {
            int length = payload.remaining();
            span.onRecord(position, payload);
            out.println("position " + position + "  length " + length + "  frame " + RecordDescriptor.alignedFrameLength(length)
                    + "  checksum ok");
            if (hex) {
                HexDump.print(out, "    ", payload);
            }
            return ++shown < limit;
        }

        @Override
        public void onCorruption(Path file, long offset, long position, Damage damage, String reason, String action) {
            if (position < from) {
                return; // before the range asked for
            }
            damaged++;
            String kind = damage == Damage.TORN_TAIL ? "TORN TAIL" : "DAMAGE";
            out.println(kind + " at " + Where.at(position, file, offset) + ": " + reason + "; " + action);
        }
    }
}
