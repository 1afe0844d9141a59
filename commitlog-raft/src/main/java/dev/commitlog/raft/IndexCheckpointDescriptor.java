package dev.commitlog.raft;

/**
 * The layout of an index checkpoint file: every group's index as it stood at a log position, so
 * that the first {@code init} reads this file and replays only the records after that position.
 * Big-endian fixed fields; {@code uvarint} is unsigned LEB128, {@code svarint} a zigzag-encoded
 * signed LEB128 (docs/format.md, "Index checkpoint files", has a worked example).
 *
 * <pre>
 *  0        8        12       16                24                32                40       44       48
 *  +--------+--------+--------+-----------------+-----------------+-----------------+--------+--------+
 *  | magic  | version| hdr len| start (i64)     | mark (i64)      | nonce (i64)     | next id| groups |
 *  | 8 bytes| u32    | u32    |                 |                 |                 | u32    | u32    |
 *  +--------+--------+--------+-----------------+-----------------+-----------------+--------+--------+
 *  48: group x groups, then crc32c u32 of every byte before it (the file's last 4 bytes)
 *
 *  group := id uvarint
 *           key length uvarint, key (UTF-8)
 *           after uvarint         this group's records at positions >= start + after are replayed
 *           base uvarint          start + after - the position of its latest GROUP or CHECKPOINT record
 *           flags u8              bit 0: first index fixed
 *           first svarint         the first log index
 *           count uvarint         last - first + 1
 *           configurations uvarint n, then n x (index - first uvarint, start + after - position uvarint)
 *           run*                  covering count slots, from first on
 *  run   := head uvarint          (slots &lt;&lt; 2) | type
 *           type 0 HOLES          slots without an entry
 *           type 1 STEP           svarint (position - previous), then, for 2 slots or more, svarint step:
 *                                 positions p, p + step, p + 2 step, ...
 *           type 2 LITERAL        slots x svarint (position - previous)
 *           "previous" is the position of the group's previous entry, 0 before its first.
 * </pre>
 *
 * <p>{@code mark} is the log position of the INDEX_CHECKPOINT record ({@link RaftRecord}) that
 * carries {@code nonce} and {@code start}: a file is trusted only against a log that holds that
 * record, which a log of another history cannot. {@code next id} is the id the next new group
 * gets. The file is named after {@code start} ({@link #fileName}), written under a temporary name
 * first.
 */
final class IndexCheckpointDescriptor {
    static final String FILE_PREFIX = "raft-index-";
    static final String FILE_SUFFIX = ".ckpt";
    static final String TEMP_SUFFIX = ".tmp";
    private static final int DIGITS = 20;

    /** "CLRAFTIX". */
    static final long MAGIC = 0x434C524146544958L;
    static final int VERSION = 1;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int HEADER_LENGTH_OFFSET = 12;
    static final int START_OFFSET = 16;
    static final int MARK_OFFSET = 24;
    static final int NONCE_OFFSET = 32;
    static final int NEXT_ID_OFFSET = 40;
    static final int GROUPS_OFFSET = 44;
    static final int HEADER_LENGTH = 48;
    static final int CRC_LENGTH = 4;

    static final int FIRST_FIXED = 1;

    static final int HOLES = 0;
    static final int STEP = 1;
    static final int LITERAL = 2;
    /** A STEP run is written for this many slots or more; shorter ones go into a LITERAL run. */
    static final int MIN_STEP_RUN = 4;

    private IndexCheckpointDescriptor() {
    }

    /** {@code raft-index-<start, 20 digits>.ckpt}: names sort as their start positions do. */
    static String fileName(long start) {
        return FILE_PREFIX + String.format("%0" + DIGITS + "d", start) + FILE_SUFFIX;
    }

    /** The start position a checkpoint file's name gives, or -1 if {@code name} is not one. */
    static long startOf(String name) {
        if (name.length() != FILE_PREFIX.length() + DIGITS + FILE_SUFFIX.length() || !name.startsWith(FILE_PREFIX)
                || !name.endsWith(FILE_SUFFIX)) {
            return -1;
        }
        long start = 0;
        for (int i = FILE_PREFIX.length(); i < FILE_PREFIX.length() + DIGITS; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9' || start > (Long.MAX_VALUE - 9) / 10) {
                return -1;
            }
            start = start * 10 + (c - '0');
        }
        return start;
    }

    /** Whether {@code name} is a checkpoint file's temporary name (a write a crash interrupted). */
    static boolean isTemporary(String name) {
        return name.endsWith(FILE_SUFFIX + TEMP_SUFFIX) && startOf(name.substring(0, name.length() - TEMP_SUFFIX.length())) >= 0;
    }
}
