package dev.commitlog.segment;

/**
 * Where one claim landed: the segment, the frame's offset in it and its log position. Owned by one
 * appending thread and reused for each of its appends, so claiming allocates nothing.
 */
public final class AppendSlot {
    Segment segment;
    long offset;
    long position;
    int alignedLength;

    public Segment segment() {
        return segment;
    }

    public long offset() {
        return offset;
    }

    /** The log position of the frame: its segment's base position plus its offset. */
    public long position() {
        return position;
    }

    /** The bytes the frame occupies, header and padding included. */
    public int alignedLength() {
        return alignedLength;
    }

    /** The log position just past the frame: durable once the durable position reaches it. */
    public long endPosition() {
        return position + alignedLength;
    }
}
