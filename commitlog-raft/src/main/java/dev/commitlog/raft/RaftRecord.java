package dev.commitlog.raft;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The binary layout of every record the Raft log storage writes to the shared commit log
 * (big-endian):
 *
 * <pre>
 * offset  size  field
 * 0       1     kind: 1 ENTRY, 2 TRUNCATE_PREFIX, 3 TRUNCATE_SUFFIX, 4 RESET
 * 1       2     group key length n (unsigned)
 * 3       n     group key, UTF-8
 * 3+n     8     log index (ENTRY, RESET: the entry's index; TRUNCATE_PREFIX: first index kept;
 *               TRUNCATE_SUFFIX: last index kept)
 * 11+n    8     term (0 in truncate markers)
 * 19+n    1     entry type number (0 in truncate markers)
 * 20+n    ...   the entry as the group's LogEntryEncoder writes it (empty in truncate markers)
 * </pre>
 *
 * <p>The header repeats the index, term and type that the encoded entry holds, so that replay and
 * term lookups read a fixed-offset header and never decode the entry.
 */
final class RaftRecord {
    static final byte ENTRY = 1;
    static final byte TRUNCATE_PREFIX = 2;
    static final byte TRUNCATE_SUFFIX = 3;
    static final byte RESET = 4;

    /** Bytes from the end of the group key to the entry body: index, term, type. */
    static final int FIXED_AFTER_KEY = 8 + 8 + 1;

    private RaftRecord() {
    }

    static byte[] keyBytes(String groupKey) {
        byte[] key = groupKey.getBytes(StandardCharsets.UTF_8);
        if (key.length > 0xFFFF) {
            throw new IllegalArgumentException("group key longer than 65535 UTF-8 bytes: " + key.length);
        }
        return key;
    }

    static int headerLength(byte[] key) {
        return 1 + 2 + key.length + FIXED_AFTER_KEY;
    }

    static byte[] encode(byte kind, byte[] key, long index, long term, int type, byte[] body) {
        int bodyLength = body == null ? 0 : body.length;
        ByteBuffer out = ByteBuffer.allocate(headerLength(key) + bodyLength);
        out.put(kind).putShort((short) key.length).put(key).putLong(index).putLong(term).put((byte) type);
        if (body != null) {
            out.put(body);
        }
        return out.array();
    }

    static byte[] marker(byte kind, byte[] key, long index) {
        return encode(kind, key, index, 0, 0, null);
    }

    /** Whether the record in {@code record} (from its position) belongs to {@code key}; reads without moving it. */
    static boolean isGroup(ByteBuffer record, byte[] key) {
        int start = record.position();
        if (record.remaining() < 3) {
            return false;
        }
        int length = Short.toUnsignedInt(record.getShort(start + 1));
        if (length != key.length || record.remaining() < 3 + length + FIXED_AFTER_KEY) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (record.get(start + 3 + i) != key[i]) {
                return false;
            }
        }
        return true;
    }

    static byte kind(ByteBuffer record) {
        return record.get(record.position());
    }

    static long index(ByteBuffer record, byte[] key) {
        return record.getLong(record.position() + 3 + key.length);
    }

    static long term(ByteBuffer record, byte[] key) {
        return record.getLong(record.position() + 3 + key.length + 8);
    }

    static int type(ByteBuffer record, byte[] key) {
        return Byte.toUnsignedInt(record.get(record.position() + 3 + key.length + 16));
    }
}
