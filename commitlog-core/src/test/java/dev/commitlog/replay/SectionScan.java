package dev.commitlog.replay;

import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.section.DamagedSectionException;
import dev.commitlog.section.SectionDecoder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Whether a reader of a sectioned segment file would take a section from it: the first section,
 * at offset 64, verifies with the engine's own decoder (header CRC under the file's current salt
 * and that offset, the segment's first position as its logical start, body CRC, padding, tag,
 * decompression). The counterpart of {@link FrameScanner#scan} at the first offset, for version 3.
 *
 * <p>Not every offset: a frame's CRC folds in its position, so a frame that verifies anywhere is
 * one a reader meets there, but a section's logical start is not tied to its offset. A section
 * that verifies further in (Jazzer forged one in a prepared segment: copied from another segment,
 * its logical start set to this segment's first position, its header CRC recomputed) is met only
 * after a chain of sections from offset 64 whose plain bytes end exactly at its logical start.
 */
final class SectionScan {
    private SectionScan() {
    }

    /** Whether the section at offset 64 of {@code file} verifies as the segment's first. */
    static boolean firstSectionVerifies(byte[] file, KeyProvider keys) {
        int at = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        if (file.length < at + Long.BYTES) {
            return false;
        }
        ByteBuffer header = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        try (SectionDecoder decoder = new SectionDecoder(keys)) {
            decoder.forSegment(header.getLong(SegmentDescriptor.SEGMENT_ID_OFFSET), header.getInt(SegmentDescriptor.SALT_OFFSET));
            decoder.decode(ByteBuffer.allocateDirect(file.length).put(0, file), at, at,
                    header.getLong(SegmentDescriptor.BASE_POSITION_OFFSET) + at, ByteBuffer.allocateDirect(file.length));
            return true;
        } catch (DamagedSectionException e) {
            return false;
        }
    }
}
