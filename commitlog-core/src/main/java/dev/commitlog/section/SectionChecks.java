package dev.commitlog.section;

import static dev.commitlog.section.SectionDescriptor.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The checksums and the additional authenticated data of a section, computed the same way by the
 * encoder and the decoder. One instance per thread; reuses its buffers, so it allocates nothing.
 */
final class SectionChecks {
    /** Segment id (i64), salt (u32), then the authenticated header bytes. */
    static final int AAD_LENGTH = Long.BYTES + Integer.BYTES + AUTHENTICATED_HEADER_LENGTH;

    private final CRC32C crc = new CRC32C();
    private final ByteBuffer prefix = ByteBuffer.allocate(Integer.BYTES + Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer aad = ByteBuffer.allocate(AAD_LENGTH).order(ByteOrder.LITTLE_ENDIAN);

    /** CRC32C of salt, file offset and header bytes 0..43. */
    int headerCrc(int salt, long fileOffset, byte[] header) {
        crc.reset();
        prefix.putInt(0, salt).putLong(Integer.BYTES, fileOffset);
        crc.update(prefix.array(), 0, prefix.capacity());
        crc.update(header, 0, HEADER_CRC_OFFSET);
        return (int) crc.getValue();
    }

    /** CRC32C of {@code buffer[from, from + length)}; the buffer's position and limit are left as they were. */
    int bodyCrc(ByteBuffer buffer, int from, int length) {
        crc.reset();
        int position = buffer.position();
        int limit = buffer.limit();
        buffer.limit(from + length).position(from);
        crc.update(buffer);
        buffer.limit(limit).position(position);
        return (int) crc.getValue();
    }

    /** Fills and returns the AAD array: segment id, salt, header bytes 0..39. */
    byte[] aad(long segmentId, int salt, byte[] header) {
        aad.putLong(0, segmentId).putInt(Long.BYTES, salt);
        System.arraycopy(header, 0, aad.array(), Long.BYTES + Integer.BYTES, AUTHENTICATED_HEADER_LENGTH);
        return aad.array();
    }
}
