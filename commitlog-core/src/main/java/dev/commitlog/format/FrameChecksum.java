package dev.commitlog.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Computes frame checksums as {@link RecordDescriptor} defines them: CRC32C over the position,
 * the length word and the payload. One instance per thread: it reuses its {@link CRC32C} and a
 * 12-byte prefix buffer so that checksumming allocates nothing.
 */
public final class FrameChecksum {
    private static final int PREFIX_LENGTH = Long.BYTES + Integer.BYTES;

    private final CRC32C crc = new CRC32C();
    private final ByteBuffer prefix = ByteBuffer.allocate(PREFIX_LENGTH).order(ByteOrder.LITTLE_ENDIAN);

    /** Starts a checksum for the frame at {@code position} with length word {@code lengthWord}. */
    public FrameChecksum begin(long position, int lengthWord) {
        crc.reset();
        prefix.putLong(0, position).putInt(Long.BYTES, lengthWord);
        crc.update(prefix.array(), 0, PREFIX_LENGTH);
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
