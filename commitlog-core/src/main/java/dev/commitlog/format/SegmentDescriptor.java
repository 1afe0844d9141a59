package dev.commitlog.format;

/**
 * Layout of the 64-byte header at the start of every segment file. Little-endian. The first
 * frame starts right after it, at {@link #SEGMENT_HEADER_LENGTH}. See {@code docs/format.md}.
 *
 * <pre>
 *   0        8        12       16                24               32       36       40       44
 *   +--------+--------+--------+-----------------+----------------+--------+--------+--------+--------+
 *   | magic  | version| hdr len| segment id (i64)| base position  | size   | salt   | hdr crc| zero   |
 *   | 8 bytes| i32    | i32    |                 | (i64)          | i32    | i32    | i32    | i32    |
 *   +--------+--------+--------+-----------------+----------------+--------+--------+--------+--------+
 *   48                56       60       64
 *   +-----------------+--------+--------+
 *   | durable mark    |mark crc| zero   |
 *   | (i64)           | i32    | i32    |
 *   +-----------------+--------+--------+
 * </pre>
 *
 * Bytes 0..39 are written once per life of the file (when it is created, reused or re-salted),
 * and covered by the header CRC (CRC32C of bytes 0..39). The salt (version 2; version 1 has a
 * flags word there, always 0) is folded into every frame's checksum: each new life of a file gets
 * a salt one above its last, so no frame of an earlier life (a recycled file's former records, or
 * records cut off after a crash) ever verifies in a later one. The durable mark is rewritten by the thread that claims a flush of the segment
 * (every flush in its first 4 KiB, past that at most once per commitlog_durable_mark_interval: see SegmentSyncer): it
 * holds a log position that was already durable before that flush, so after a crash any damage
 * below the highest valid mark of any segment is corruption, never a torn tail. The
 * mark's CRC covers the segment id and the mark, so a mark copied from another file is rejected.
 */
public final class SegmentDescriptor {
    /** "CLOGSEG" followed by a zero byte, read as a little-endian long. */
    public static final long MAGIC = 0x0047_4553_474F_4C43L;
    /** The version this build writes. */
    public static final int FORMAT_VERSION = 2;
    /** The first version, which this build still reads: no salt, frames checksummed without one. */
    public static final int FORMAT_VERSION_1 = 1;
    /**
     * The version of a segment that holds sections (compressed or encrypted flushes) after its
     * header instead of frames: the header is version 2's, the frames are inside the sections
     * (docs/format.md, "Sections"). Written only with commitlog_compression or commitlog_encryption.
     */
    public static final int FORMAT_VERSION_SECTIONS = 3;
    public static final int SEGMENT_HEADER_LENGTH = 64;
    /** The smallest segment file a log makes (commitlog_segment_size's minimum); a shorter one is damage. */
    public static final int MIN_SEGMENT_SIZE = 64 << 10;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 8;
    public static final int HEADER_LENGTH_OFFSET = 12;
    public static final int SEGMENT_ID_OFFSET = 16;
    public static final int BASE_POSITION_OFFSET = 24;
    public static final int SEGMENT_SIZE_OFFSET = 32;
    /** Version 2: the life salt (u32) folded into frame checksums. Version 1: flags, always 0. */
    public static final int SALT_OFFSET = 36;
    public static final int HEADER_CRC_OFFSET = 40;
    /** The header CRC covers bytes [0, HEADER_CRC_OFFSET). */
    public static final int HEADER_CRC_COVERS = HEADER_CRC_OFFSET;
    public static final int DURABLE_MARK_OFFSET = 48;
    public static final int DURABLE_MARK_CRC_OFFSET = 56;

    /** Segment files are named {@code commitlog-<20-digit id>.log}; ids sort as names do. */
    public static final String FILE_PREFIX = "commitlog-";
    public static final String FILE_SUFFIX = ".log";
    /** Files being created carry this suffix until they are complete and synced. */
    public static final String TEMP_SUFFIX = ".tmp";
    /**
     * A discarded segment kept to be reused ({@code commitlog_recycle_segments}) is renamed
     * {@code commitlog-<its former id>.recycle}: no longer part of the log, never read as one.
     */
    public static final String RECYCLE_SUFFIX = ".recycle";

    private SegmentDescriptor() {
    }

    public static String fileName(long segmentId) {
        return String.format("%s%020d%s", FILE_PREFIX, segmentId, FILE_SUFFIX);
    }

    /** The name a discarded segment takes while it waits to be reused. */
    public static String recycledName(long formerId) {
        return String.format("%s%020d%s", FILE_PREFIX, formerId, RECYCLE_SUFFIX);
    }

    /** The id in a segment file name, or -1 when the name is not a segment file's. */
    public static long parseId(String fileName) {
        return parseId(fileName, FILE_SUFFIX);
    }

    /** The former id in a recycled file's name, or -1 when the name is not one. */
    public static long parseRecycledId(String fileName) {
        return parseId(fileName, RECYCLE_SUFFIX);
    }

    private static long parseId(String fileName, String suffix) {
        if (!fileName.startsWith(FILE_PREFIX) || !fileName.endsWith(suffix)) {
            return -1;
        }
        String digits = fileName.substring(FILE_PREFIX.length(), fileName.length() - suffix.length());
        if (digits.length() != 20 || !digits.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
