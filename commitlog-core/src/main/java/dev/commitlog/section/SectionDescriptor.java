package dev.commitlog.section;

/**
 * Layout of one section: a 48-byte header, then the stored body, then zero padding to 8 bytes.
 * Little-endian, like the rest of a segment; docs/format.md, "Sections", has the grammar and a
 * worked example.
 *
 * <pre>
 *   0        4     5      6       8                    16          20          24       28
 *   +--------+-----+------+-------+--------------------+-----------+-----------+--------+
 *   | magic  |codec|cipher| zero  | logical start (i64)| logical   | stored    | key id |
 *   | u32    | u8  | u8   | u16   |                    | length i32| length i32| i32    |
 *   +--------+-----+------+-------+--------------------+-----------+-----------+--------+
 *   28                                  40          44          48
 *   +-----------------------------------+-----------+-----------+------------------------+-----+
 *   | nonce (12 bytes)                  | body crc  | header crc| body (stored length)   | pad |
 *   +-----------------------------------+-----------+-----------+------------------------+-----+
 * </pre>
 *
 * <ul>
 *   <li>{@code logical start}: the log position of the first plain byte; the section holds the
 *       plain bytes {@code [start, start + logical length)}.</li>
 *   <li>{@code codec}: how the body was compressed ({@link #CODEC_NONE} when compressing did not
 *       make it shorter); {@code cipher}: {@link #CIPHER_NONE} or {@link #CIPHER_AES_256_GCM}, whose
 *       body ends with the 16-byte tag.</li>
 *   <li>{@code key id} and {@code nonce}: 0 without a cipher.</li>
 *   <li>{@code body crc}: CRC32C of the stored body, so a torn or damaged body is found without a key.</li>
 *   <li>{@code header crc}: CRC32C of the segment's salt (u32), the section's file offset (i64) and
 *       header bytes 0..43: a section left by an earlier life of the file, or written at another
 *       place, does not verify (the frame rule).</li>
 *   <li>Encrypted: the additional authenticated data is the segment id (i64), the salt (u32) and
 *       header bytes 0..39 (all but the two CRCs), so a section moved to another log position,
 *       segment or life, or whose header was edited, fails its tag.</li>
 * </ul>
 */
public final class SectionDescriptor {
    /** "CLSC" in file order ({@code 43 4C 53 43}); never 0, which a reader takes as "nothing written here". */
    public static final int MAGIC = 0x43534C43;
    public static final int HEADER_LENGTH = 48;
    public static final int ALIGNMENT = 8;

    public static final int MAGIC_OFFSET = 0;
    public static final int CODEC_OFFSET = 4;
    public static final int CIPHER_OFFSET = 5;
    public static final int RESERVED_OFFSET = 6;
    public static final int LOGICAL_START_OFFSET = 8;
    public static final int LOGICAL_LENGTH_OFFSET = 16;
    public static final int STORED_LENGTH_OFFSET = 20;
    public static final int KEY_ID_OFFSET = 24;
    public static final int NONCE_OFFSET = 28;
    public static final int BODY_CRC_OFFSET = 40;
    public static final int HEADER_CRC_OFFSET = 44;
    /** Header bytes under the additional authenticated data: everything before the CRCs. */
    public static final int AUTHENTICATED_HEADER_LENGTH = BODY_CRC_OFFSET;

    public static final int CODEC_NONE = 0;
    public static final int CODEC_LZ4 = 1;
    public static final int CODEC_ZSTD = 2;
    public static final int CIPHER_NONE = 0;
    public static final int CIPHER_AES_256_GCM = 1;

    public static final int NONCE_LENGTH = 12;
    public static final int TAG_LENGTH = 16;
    public static final int KEY_LENGTH = 32;

    private SectionDescriptor() {
    }

    /** The bytes a section of {@code storedLength} takes in the file, header and padding included. */
    public static long sectionLength(int storedLength) {
        return HEADER_LENGTH + align(storedLength);
    }

    static long align(long length) {
        return (length + ALIGNMENT - 1) & -ALIGNMENT;
    }
}
