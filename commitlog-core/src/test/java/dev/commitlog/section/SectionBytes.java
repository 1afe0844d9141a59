package dev.commitlog.section;

import static dev.commitlog.section.SectionDescriptor.*;

import dev.commitlog.format.SegmentDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The stored bytes of a sectioned segment file as tests damage them: where its sections lie, and
 * the two CRCs recomputed after a change, so that only the checks the CRCs do not cover (the GCM
 * tag, decompression, the frames' own CRCs) can notice it. Computed from docs/format.md's layout,
 * independently of the engine's {@code SectionChecks}.
 */
public final class SectionBytes {
    private SectionBytes() {
    }

    /**
     * The file offsets of the sections as the file now stands: from offset 64, one after another,
     * while a section's magic is there and its stored length keeps it inside the file.
     */
    public static List<Integer> sectionOffsets(byte[] file) {
        ByteBuffer bytes = little(file);
        List<Integer> offsets = new ArrayList<>();
        long at = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        while (at + HEADER_LENGTH <= file.length && bytes.getInt((int) at) == MAGIC) {
            int stored = bytes.getInt((int) at + STORED_LENGTH_OFFSET);
            if (stored < 0 || at + sectionLength(stored) > file.length) {
                break;
            }
            offsets.add((int) at);
            at += sectionLength(stored);
        }
        return offsets;
    }

    /** The stored length the header of the section at {@code at} names. */
    public static int storedLength(byte[] file, int at) {
        return little(file).getInt(at + STORED_LENGTH_OFFSET);
    }

    /** The log position just past the plain bytes the section at {@code at} names: its logical start plus its logical length. */
    public static long logicalEnd(byte[] file, int at) {
        ByteBuffer bytes = little(file);
        return bytes.getLong(at + LOGICAL_START_OFFSET) + bytes.getInt(at + LOGICAL_LENGTH_OFFSET);
    }

    /** Recomputes the body CRC of the section at {@code at} over its stored length, then its header CRC. */
    public static void recomputeCrcs(byte[] file, int at) {
        int stored = storedLength(file, at);
        int body = at + HEADER_LENGTH;
        CRC32C crc = new CRC32C();
        crc.update(file, body, Math.max(0, Math.min(stored, file.length - body)));
        little(file).putInt(at + BODY_CRC_OFFSET, (int) crc.getValue());
        recomputeHeaderCrc(file, at);
    }

    /** Recomputes the header CRC of the section at {@code at}: the file's salt, the offset, header bytes 0..43. */
    public static void recomputeHeaderCrc(byte[] file, int at) {
        little(file).putInt(at + HEADER_CRC_OFFSET, headerCrc(file, at));
    }

    /** The header CRC the section at {@code at} must carry under the salt its file's header names now. */
    public static int headerCrc(byte[] file, int at) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(Integer.BYTES + Long.BYTES).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(0, little(file).getInt(SegmentDescriptor.SALT_OFFSET)).putLong(Integer.BYTES, at).array());
        crc.update(file, at, HEADER_CRC_OFFSET);
        return (int) crc.getValue();
    }

    private static ByteBuffer little(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
}
