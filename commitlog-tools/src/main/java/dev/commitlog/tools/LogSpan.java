package dev.commitlog.tools;

import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.repair.LogInspector;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Where a log starts and ends: the one definition every command prints.
 *
 * <ul>
 *   <li><b>start</b>: the base position of the oldest segment file whose header verifies. Positions
 *       below it were discarded (or never written).</li>
 *   <li><b>end</b>: the position just past the last valid record: its position plus its frame size,
 *       which is what {@code dump} prints for it. A log with no valid record ends where its first
 *       record would go, the first frame of its oldest segment; a directory with no readable
 *       segment header starts and ends at 0.</li>
 * </ul>
 *
 * <p>The end is not always where appends go on after an open: recovery also passes what follows
 * the last record without holding one (an aborted claim, the header of a segment the writer rolled
 * into), and appends resume after that. Those bytes hold no record, so the end of the log, as an
 * operator reads it against {@code dump}, is the end of the last record.
 *
 * <p>As an observer of a walk it counts every valid record it is shown; {@link #read} walks the
 * whole log as {@code dump} and {@code stats} read it ({@code skip_corrupt}: damage is passed).
 */
final class LogSpan implements LogInspector.Observer {
    private long start = -1;
    private long records;
    private long first = -1;
    private long last = -1;
    private long lastEnd = -1;

    /** The whole log in {@code directory}, walked from its start (a log without encrypted segments). */
    static LogSpan read(Path directory) throws IOException {
        LogSpan span = new LogSpan();
        new LogInspector().walk(directory, 0, ReplayPolicy.SKIP_CORRUPT, span);
        return span;
    }

    /** The whole log in {@code directory}, walked from its start with {@code keys}. */
    static LogSpan read(Path directory, ToolKeys keys) throws IOException {
        LogSpan span = new LogSpan();
        keys.walk(directory, 0, ReplayPolicy.SKIP_CORRUPT, span);
        return span;
    }

    @Override
    public void onSegment(SegmentRef ref, SegmentHeader header) {
        if (start < 0) {
            start = header.basePosition(); // walks go in position order: the first segment entered is the oldest readable one
        }
    }

    @Override
    public boolean onRecord(long position, ByteBuffer payload) {
        records++;
        first = first < 0 ? position : first;
        last = position;
        lastEnd = position + RecordDescriptor.alignedFrameLength(payload.remaining());
        return true;
    }

    /** See the class comment. */
    long start() {
        return Math.max(start, 0);
    }

    /** See the class comment. */
    long end() {
        if (lastEnd >= 0) {
            return lastEnd;
        }
        return start < 0 ? 0 : start + SegmentDescriptor.SEGMENT_HEADER_LENGTH;
    }

    long records() {
        return records;
    }

    /** The first record's position, or -1 when there is none. */
    long first() {
        return first;
    }

    /** The last record's position, or -1 when there is none. */
    long last() {
        return last;
    }

    /** The end of the log, as the commands print it: {@code E (just past the last valid record)}. */
    String describeEnd() {
        return end() + (records == 0 ? " (no record: where the first one would go)" : " (just past the last valid record)");
    }
}
