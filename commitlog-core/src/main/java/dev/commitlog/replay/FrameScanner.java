package dev.commitlog.replay;

import static dev.commitlog.format.RecordDescriptor.ALIGNMENT;
import static dev.commitlog.format.RecordDescriptor.END_MARKER_LENGTH;
import static dev.commitlog.format.RecordDescriptor.END_OF_SEGMENT;
import static dev.commitlog.format.RecordDescriptor.FRAME_HEADER_LENGTH;

import dev.commitlog.format.FrameChecksum;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.format.RecordDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads the frame at an offset of one segment and says what it is, checking everything the
 * format lets it check. It decides nothing about what a bad frame means (torn tail or corruption):
 * that depends on where the frame is relative to the durable mark, which {@link LogWalker} knows.
 * Reuses its buffers, so scanning allocates nothing per frame.
 */
public final class FrameScanner {
    public enum Kind {
        /** A record whose checksum verified. */
        RECORD,
        /** An aborted claim whose checksum verified; holds no record. */
        ABORTED,
        /** A verified end-of-segment marker. */
        END,
        /** A zero length word: nothing was ever published here. */
        UNWRITTEN,
        /** Anything else; {@link #reason()} says what. */
        BAD
    }

    private final FrameChecksum checksum = new FrameChecksum();
    private ByteBuffer segment;
    private ByteBuffer payloadView;
    private long basePosition;
    private int recordLimit;

    private int frameOffset;
    private int alignedLength;
    private int payloadLength;
    /** What was wrong with the last BAD frame (null otherwise), and the figures its reason quotes. */
    private Problem problem;
    private int detailA;
    private int detailB;
    private int detailC;

    /**
     * Why a frame is BAD. The reason string is built only when asked for: resynchronising after
     * damage scans every aligned offset of a segment, and most of them are BAD.
     */
    private enum Problem { NO_ROOM, END_CRC, ABORT_SIZE, ABORT_CRC, SHORT, PAST_END, CRC, PADDING }

    /** Points the scanner at a segment's mapped bytes, whose header the caller has verified. */
    public void reset(ByteBuffer segmentBytes, long basePosition) {
        this.segment = segmentBytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        checksum.forSegment(segment.getInt(SegmentDescriptor.VERSION_OFFSET), segment.getInt(SegmentDescriptor.SALT_OFFSET));
        this.payloadView = segmentBytes.duplicate();
        this.basePosition = basePosition;
        this.recordLimit = segmentBytes.capacity() - END_MARKER_LENGTH;
    }

    /** Classifies the frame at {@code offset} (which must be 8-byte aligned). */
    public Kind scan(int offset) {
        frameOffset = offset;
        alignedLength = 0;
        payloadLength = 0;
        problem = null;
        if (offset > recordLimit) {
            return bad(Problem.NO_ROOM, offset, segment.capacity(), 0);
        }
        int length = segment.getInt(offset);
        long position = basePosition + offset;
        if (length == 0) {
            return Kind.UNWRITTEN;
        }
        if (length == END_OF_SEGMENT) {
            return checksum.headerOnly(position, length) == storedCrc(offset) ? Kind.END
                    : bad(Problem.END_CRC, 0, 0, 0);
        }
        if (length < 0) {
            int skip = -length;
            if (skip < FRAME_HEADER_LENGTH || skip % ALIGNMENT != 0 || (long) offset + skip > recordLimit) {
                return bad(Problem.ABORT_SIZE, skip, 0, 0);
            }
            if (checksum.headerOnly(position, length) != storedCrc(offset)) {
                return bad(Problem.ABORT_CRC, 0, 0, 0);
            }
            alignedLength = skip;
            return Kind.ABORTED;
        }
        if (length < FRAME_HEADER_LENGTH) {
            return bad(Problem.SHORT, length, 0, 0);
        }
        int aligned = RecordDescriptor.alignedLength(length);
        if (aligned < 0 || (long) offset + aligned > recordLimit) {
            return bad(Problem.PAST_END, length, 0, 0);
        }
        int payload = length - FRAME_HEADER_LENGTH;
        payloadView.limit(offset + length).position(offset + FRAME_HEADER_LENGTH);
        int computed = checksum.begin(position, length).update(payloadView).value();
        int stored = storedCrc(offset);
        if (computed != stored) {
            return bad(Problem.CRC, stored, computed, payload);
        }
        for (int pad = offset + length; pad < offset + aligned; pad++) {
            if (segment.get(pad) != 0) {
                // Padding is not under the CRC; writers leave it zero, so anything else is damage.
                return bad(Problem.PADDING, payload, 0, 0);
            }
        }
        alignedLength = aligned;
        payloadLength = payload;
        return Kind.RECORD;
    }

    /** After a BAD frame: the next aligned offset after {@code from} that holds a verified record or marker, or -1. */
    int resync(int from) {
        for (int offset = from + ALIGNMENT; offset <= recordLimit; offset += ALIGNMENT) {
            Kind kind = scan(offset);
            if (kind == Kind.RECORD || kind == Kind.END) {
                return offset;
            }
        }
        return -1;
    }

    private int storedCrc(int offset) {
        return segment.getInt(offset + 4);
    }

    private Kind bad(Problem what, int a, int b, int c) {
        problem = what;
        detailA = a;
        detailB = b;
        detailC = c;
        return Kind.BAD;
    }

    int frameOffset() {
        return frameOffset;
    }

    /** The size of the segment the scanner is on. */
    int segmentSize() {
        return segment.capacity();
    }

    /** Bytes to the next frame, for RECORD and ABORTED. */
    public int alignedLength() {
        return alignedLength;
    }

    public int payloadOffset() {
        return frameOffset + FRAME_HEADER_LENGTH;
    }

    public int payloadLength() {
        return payloadLength;
    }

    /** What was wrong with the last frame scanned, or null if it was not BAD. */
    public String reason() {
        if (problem == null) {
            return null;
        }
        return switch (problem) {
            case NO_ROOM -> "no room for a frame header at offset " + detailA + " (segment ends at " + detailB + ")";
            case END_CRC -> "end-of-segment marker with a bad checksum";
            case ABORT_SIZE -> "aborted-claim length " + detailA + " is not a valid frame size here";
            case ABORT_CRC -> "aborted-claim marker with a bad checksum";
            case SHORT -> "frame length " + detailA + " is shorter than the " + FRAME_HEADER_LENGTH + "-byte frame header";
            case PAST_END -> "frame length " + detailA + " runs past the end of the segment";
            case CRC -> String.format("checksum mismatch (stored 0x%08x, computed 0x%08x) for a %d-byte record", detailA, detailB, detailC);
            case PADDING -> "non-zero padding byte after a " + detailA + "-byte record";
        };
    }
}
