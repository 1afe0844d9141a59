package dev.commitlog.replay;

import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.section.DamagedSectionException;
import dev.commitlog.section.SectionDecoder;
import dev.commitlog.section.SectionDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Looks for a section that verifies anywhere in a sectioned segment file, not only where a reader's
 * chain of sections would meet it: the counterpart of {@link FrameScanner#resync} for version 3. A
 * section verifies when the engine's own decoder accepts it (header CRC under the file's current
 * salt and its offset, body CRC, padding, tag, decompression) at the logical start its header names,
 * when that start is one of this segment's positions: a reader expects this segment's positions
 * and refuses any other (a section copied from another segment, its header CRC recomputed here).
 */
final class SectionScan {
    private SectionScan() {
    }

    /** The offset of the first section of {@code file} that verifies, or -1. */
    static int firstVerifying(byte[] file, KeyProvider keys) {
        ByteBuffer header = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer source = null;
        ByteBuffer plain = null;
        try (SectionDecoder decoder = new SectionDecoder(keys)) {
            decoder.forSegment(header.getLong(SegmentDescriptor.SEGMENT_ID_OFFSET), header.getInt(SegmentDescriptor.SALT_OFFSET));
            long base = header.getLong(SegmentDescriptor.BASE_POSITION_OFFSET);
            for (int at = SegmentDescriptor.SEGMENT_HEADER_LENGTH; at + SectionDescriptor.HEADER_LENGTH <= file.length;
                 at += SectionDescriptor.ALIGNMENT) {
                if (header.getInt(at) != SectionDescriptor.MAGIC) {
                    continue; // the decoder needs direct buffers: made only once a magic is seen
                }
                long start = header.getLong(at + SectionDescriptor.LOGICAL_START_OFFSET);
                if (start < base + SegmentDescriptor.SEGMENT_HEADER_LENGTH || start >= base + file.length) {
                    continue; // positions of another segment: the reader, expecting this one's, never takes it
                }
                if (source == null) {
                    source = ByteBuffer.allocateDirect(file.length).put(0, file);
                    plain = ByteBuffer.allocateDirect(file.length);
                }
                try {
                    decoder.decode(source, at, at, start, plain.clear());
                    return at;
                } catch (DamagedSectionException e) {
                    // does not verify here: look on
                }
            }
        }
        return -1;
    }
}
