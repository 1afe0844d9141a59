package dev.commitlog.tools;

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
 */
@Command(name = "dump", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Print every record (position, payload length, frame size, checksum status) and every piece of damage met "
                + "(position, file, offset, reason), in log order, up to where recovery would end the log. Read-only; safe on a live log.",
                "Exit code 0 whatever it met (use verify for a verdict)."})
final class DumpCommand implements Callable<Integer> {
    @Mixin
    LogDirectory logDirectory;

    @Option(names = "--from", paramLabel = "POSITION", description = "start at this log position (default: the oldest record)")
    long from;

    @Option(names = "--limit", paramLabel = "N", description = "print at most N records")
    long limit = Long.MAX_VALUE;

    @Option(names = "--hex", description = "also print each payload in hex and text")
    boolean hex;

    @Override
    public Integer call() throws IOException {
        Path directory = logDirectory.checked();
        if (from < 0) {
            throw logDirectory.refuse("--from must be a log position (>= 0), not " + from);
        }
        if (limit < 1) {
            throw logDirectory.refuse("--limit must be at least 1, not " + limit);
        }
        PrintWriter out = logDirectory.out();
        Printer printer = new Printer(out);
        LogInspector.Summary summary = new LogInspector().walk(directory, from, ReplayPolicy.SKIP_CORRUPT, printer);
        if (summary.stopped()) {
            out.println("stopped after " + printer.shown + " records (--limit " + limit + ")");
        } else {
            out.println("end of log at position " + summary.endPosition() + ": " + printer.shown + " records shown, "
                    + printer.damaged + " damaged frames met");
        }
        return ExitCode.OK;
    }

    private final class Printer implements LogInspector.Observer {
        private final PrintWriter out;
        private long shown;
        private long damaged;

        Printer(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void onSegment(SegmentRef ref, SegmentHeader header) {
            out.println("segment " + ref.path().getFileName() + ": id " + header.segmentId() + ", base position " + header.basePosition()
                    + ", size " + header.segmentSize() + ", durable mark " + header.durableMark());
        }

        @Override
        public boolean onRecord(long position, ByteBuffer payload) {
            int length = payload.remaining();
            out.println("position " + position + "  length " + length + "  frame " + RecordDescriptor.alignedFrameLength(length)
                    + "  checksum ok");
            if (hex) {
                HexDump.print(out, "    ", payload);
            }
            return ++shown < limit;
        }

        @Override
        public void onCorruption(Path file, long offset, long position, String reason, String action) {
            if (position < from) {
                return; // before the range asked for
            }
            damaged++;
            String kind = LogInspector.isTornTail(reason) ? "TORN TAIL" : "DAMAGE";
            out.println(kind + " at " + Where.at(position, file, offset) + ": " + reason + "; " + action);
        }
    }
}
