package dev.commitlog.format;

/**
 * How much of a sectioned segment (format version 3) claims may take. A sectioned file is as long
 * as its plain range of positions, and each section adds its own overhead (header, GCM tag,
 * padding, the zero word after it), so claims must stop early enough that what they hold still
 * fits in the file once stored:
 * <ul>
 *   <li>{@link #SEGMENT_RESERVE}: the end of every sectioned segment is never claimed, so that one
 *       section holding everything from the header to the end marker always fits;</li>
 *   <li>{@link #claimsEnd}: after each flush the flusher allows claims only so far that the rest,
 *       stored as one more section, fits in the room the flush left, less a slack for claims that
 *       read the previous budget while it was lowered. A claim past it seals the segment instead,
 *       and the flusher then stores the rest as one section, once the end marker is published.</li>
 * </ul>
 * Compressed sections take less room than their range, so compressible records fill the segment;
 * many small encrypted flushes (one thread, Batch) end a segment early. docs/format.md, "Sections".
 */
public final class SectionBudget {
    /** At most what one section adds to its range: a 48-byte header, a 16-byte tag, 7 of padding, the 8-byte zero word. */
    public static final int SECTION_OVERHEAD = 80;
    /** Kept free at the end of every sectioned segment: room for the overhead of the last two sections. */
    public static final int SEGMENT_RESERVE = 2 * SECTION_OVERHEAD;
    /** The end-of-segment marker's 8 bytes, which the last section also holds. */
    private static final int END_MARKER = 8;

    private SectionBudget() {
    }

    /**
     * The offset claims may reach in a segment of {@code size} bytes flushed up to {@code flushedTo}
     * whose file has {@code roomAfter} bytes left after that flush's section: what lies between
     * them, with the end marker, stored as one section, fits with the slack to spare.
     */
    public static long claimsEnd(long flushedTo, long roomAfter, int size) {
        return flushedTo + roomAfter - SECTION_OVERHEAD - END_MARKER - slack(size);
    }

    /**
     * Room for claims that passed the budget check before the flusher lowered it (one per racing
     * thread) and for the flushes made before the flusher sees the seal: four sections' overhead
     * and 1/64 of the segment, at least 4 KiB.
     */
    static long slack(int size) {
        return 4L * SECTION_OVERHEAD + Math.max(4096, size / 64);
    }
}
