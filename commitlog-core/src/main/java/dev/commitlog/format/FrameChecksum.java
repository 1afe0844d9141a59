package dev.commitlog.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Computes frame checksums as {@link RecordDescriptor} defines them: CRC32C over the segment's
 * salt (format version 2), the position, the length word and the payload. One instance per thread:
 * it reuses its {@link CRC32C} and a 16-byte prefix buffer so that checksumming allocates nothing.
 *
 * <p>Assumption: whoever checksums a frame first points this at the frame's segment
 * ({@link #forSegment}); a new instance checksums for a version 2 segment of salt 0.
 */
public final class FrameChecksum {
    private static final int SALTED_PREFIX_LENGTH = Integer.BYTES + Long.BYTES + Integer.BYTES;
    private static final int VERSION_1_PREFIX_LENGTH = Long.BYTES + Integer.BYTES;

    private final CRC32C crc = new CRC32C();
    private final ByteBuffer prefix = ByteBuffer.allocate(SALTED_PREFIX_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private boolean salted = true;
    private int salt;

    /** Checksums the frames of a segment of format {@code version} and salt {@code salt} from now on. */
    public FrameChecksum forSegment(int version, int salt) {
        this.salted = version != SegmentDescriptor.FORMAT_VERSION_1;
        this.salt = salt;
        return this;
    }

    /** Starts a checksum for the frame at {@code position} with length word {@code lengthWord}. */
    public FrameChecksum begin(long position, int lengthWord) {
        crc.reset();
        if (salted) {
            prefix.putInt(0, salt).putLong(Integer.BYTES, position).putInt(Integer.BYTES + Long.BYTES, lengthWord);
            crc.update(prefix.array(), 0, SALTED_PREFIX_LENGTH);
        } else {
            prefix.putLong(0, position).putInt(Long.BYTES, lengthWord);
            crc.update(prefix.array(), 0, VERSION_1_PREFIX_LENGTH);
        }
        return this;
    }

    public FrameChecksum update(byte[] bytes, int offset, int length) {
        crc.update(bytes, offset, length);
        return this;
    }

    /** Consumes {@code buffer} from its position to its limit (the caller restores it if needed). */
    public FrameChecksum update(ByteBuffer buffer) {
        crc.update(buffer);
        return this;
    }

    public int value() {
        return (int) crc.getValue();
    }

    /** The checksum of a frame that carries no payload (end-of-segment marker, aborted claim). */
    public int headerOnly(long position, int lengthWord) {
        return begin(position, lengthWord).value();
    }
}
