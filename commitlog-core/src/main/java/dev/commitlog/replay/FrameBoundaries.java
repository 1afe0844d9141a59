package dev.commitlog.replay;

import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.format.SegmentDescriptor;
import java.nio.file.Path;

/**
 * Tells whether a log position is a frame boundary of one durable segment, the check behind every
 * call that starts reading at a caller's position ({@code readAt}, {@code tailer}; replay makes the
 * same check as it walks, in {@link LogWalker}). Frames have no marker of their own, so the only
 * way to know where they start is to walk their length words from the segment's first frame: a
 * position the walk lands on is a boundary, one it steps over lies inside a frame. The segment's
 * base (the previous segment's end) is a boundary too.
 *
 * <p>Walks only durable frames (every caller checked the position against the durable position
 * first), so a frame on the way that does not verify is damage after its flush, reported as such.
 */
public final class FrameBoundaries {
    private FrameBoundaries() {
    }

    /**
     * Returns normally if a frame starts at {@code offset} of the segment {@code scanner} is on
     * (reset to it by the caller), or {@code offset} is 0.
     *
     * @throws IllegalArgumentException if {@code offset} lies inside the header, inside a frame or
     *                                  past the end-of-segment marker; the message names the frames around it
     * @throws CorruptLogException      if a frame below {@code offset} does not verify
     */
    public static void requireFrameStart(FrameScanner scanner, Path file, long base, int offset) {
        long position = base + offset;
        if (offset == 0) {
            return;
        }
        int at = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        if (offset < at) {
            throw insideHeader(position, file, base);
        }
        while (at < offset) {
            FrameScanner.Kind kind = scanner.scan(at);
            switch (kind) {
                case RECORD, ABORTED -> {
                    int next = at + scanner.alignedLength();
                    if (next > offset) {
                        throw insideFrame(position, base + at, base + next, kind);
                    }
                    at = next;
                }
                case END -> throw pastEndMarker(position, base + at, base + scanner.segmentSize());
                default -> throw new CorruptLogException(file, at, base + at, Damage.BAD_FRAME,
                        scanner.reason() == null ? "no frame below the durable position" : scanner.reason(),
                        "the file changed after it was flushed");
            }
        }
    }

    /** The refusal of a position between a segment's base and its first frame. */
    static IllegalArgumentException insideHeader(long position, Path file, long base) {
        return LogPositions.notARecordStart(position, "it lies inside the header of segment " + file.getFileName()
                + ", whose first frame starts at log position " + (base + SegmentDescriptor.SEGMENT_HEADER_LENGTH));
    }

    /** The refusal of a position inside the frame {@code [frameStart, next)}, a RECORD or an ABORTED claim. */
    static IllegalArgumentException insideFrame(long position, long frameStart, long next, FrameScanner.Kind kind) {
        return LogPositions.notARecordStart(position, "it lies inside the frame at log position " + frameStart
                + (kind == FrameScanner.Kind.ABORTED ? " (an aborted claim)" : "") + "; the next frame starts at log position " + next);
    }

    /** The refusal of a position between a segment's end marker and its end. */
    static IllegalArgumentException pastEndMarker(long position, long marker, long segmentEnd) {
        return LogPositions.notARecordStart(position, "it lies past the end-of-segment marker at log position " + marker
                + "; the next segment starts at log position " + segmentEnd);
    }
}
