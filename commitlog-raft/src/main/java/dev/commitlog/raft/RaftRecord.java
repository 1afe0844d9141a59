package dev.commitlog.raft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The binary layout of every record the Raft log storage writes to the shared commit log
 * (big-endian; {@code id} is the group id as an unsigned LEB128 varint, one byte for ids below 128):
 *
 * <pre>
 * kind                 then
 * 1 GROUP              id, key length u16, key UTF-8              binds the group key to the id
 * 2 DATA               id, index i64, term i64, data              a DATA entry with no peers,
 *                                                                 learners nor checksum
 * 3 DATA_CHECKSUM      id, index i64, term i64, checksum i64, data   the same, with its checksum
 * 4 ENTRY              id, index i64, term i64, type u8, encoded  any other entry, as the
 *                                                                 group's LogEntryEncoder writes it
 * 5 TRUNCATE_PREFIX    id, first index kept i64
 * 6 TRUNCATE_SUFFIX    id, last index kept i64
 * 7 RESET              id, index i64, term i64, type u8, encoded  drops every entry, keeps this one
 * 8 CHECKPOINT         id, first i64, last i64, flags u8, key length u16, key
 *                      the group's whole bounds state (flags bit 0: first index fixed), and its
 *                      binding, rewritten before older records are discarded
 * 9 DROP               id                                          empties the group and ends its
 *                                                                 binding: no record of the id follows
 * 10 INDEX_CHECKPOINT  0 (no group), nonce i64, start i64
 *                      vouches for the index checkpoint file of that nonce and start
 *                      ({@link IndexCheckpointDescriptor}); replay passes over it
 * </pre>
 *
 * <p>Index and term stay fixed-width right after the id, so replay and term lookups read them
 * without decoding the entry. DATA entries (nearly all of a Raft log) carry their data raw: no
 * codec header, no repeated index, term or type.
 */
final class RaftRecord {
    static final byte GROUP = 1;
    static final byte DATA = 2;
    static final byte DATA_CHECKSUM = 3;
    static final byte ENTRY = 4;
    static final byte TRUNCATE_PREFIX = 5;
    static final byte TRUNCATE_SUFFIX = 6;
    static final byte RESET = 7;
    static final byte CHECKPOINT = 8;
    static final byte DROP = 9;
    /** Names no group: the id byte is 0, which no group is given. */
    static final byte INDEX_CHECKPOINT = 10;

    /** CHECKPOINT flags bit: the first index was set by a truncation or reset, not by the first entry. */
    static final int FIRST_FIXED = 1;

    /** Index and term, after the id in entry-bearing records. */
    static final int INDEX_TERM = 16;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

    private RaftRecord() {
    }

    static byte[] keyBytes(String groupKey) {
        byte[] key = groupKey.getBytes(StandardCharsets.UTF_8);
        if (key.length > 0xFFFF) {
            throw new IllegalArgumentException("group key longer than 65535 UTF-8 bytes: " + key.length);
        }
        return key;
    }

    // ---- writing: each method returns the exact record; one array per record, what appendBatch takes

    static byte[] group(int id, byte[] key) {
        byte[] out = new byte[1 + varintLength(id) + 2 + key.length];
        int at = header(out, GROUP, id);
        SHORT.set(out, at, (short) key.length);
        System.arraycopy(key, 0, out, at + 2, key.length);
        return out;
    }

    /** A DATA or DATA_CHECKSUM record; copies {@code data}'s remaining bytes without moving it. */
    static byte[] data(int id, long index, long term, boolean hasChecksum, long checksum, ByteBuffer data) {
        int length = data == null ? 0 : data.remaining();
        int fixed = INDEX_TERM + (hasChecksum ? 8 : 0);
        byte[] out = new byte[1 + varintLength(id) + fixed + length];
        int at = header(out, hasChecksum ? DATA_CHECKSUM : DATA, id);
        LONG.set(out, at, index);
        LONG.set(out, at + 8, term);
        if (hasChecksum) {
            LONG.set(out, at + 16, checksum);
        }
        if (length > 0) {
            data.get(data.position(), out, at + fixed, length);
        }
        return out;
    }

    /** An ENTRY or RESET record around a body from the group's LogEntryEncoder. */
    static byte[] encoded(byte kind, int id, long index, long term, int type, byte[] body) {
        byte[] out = new byte[1 + varintLength(id) + INDEX_TERM + 1 + body.length];
        int at = header(out, kind, id);
        LONG.set(out, at, index);
        LONG.set(out, at + 8, term);
        out[at + 16] = (byte) type;
        System.arraycopy(body, 0, out, at + INDEX_TERM + 1, body.length);
        return out;
    }

    static byte[] marker(byte kind, int id, long index) {
        byte[] out = new byte[1 + varintLength(id) + 8];
        LONG.set(out, header(out, kind, id), index);
        return out;
    }

    static byte[] drop(int id) {
        byte[] out = new byte[1 + varintLength(id)];
        header(out, DROP, id);
        return out;
    }

    static byte[] checkpoint(int id, long first, long last, boolean firstFixed, byte[] key) {
        byte[] out = new byte[1 + varintLength(id) + 8 + 8 + 1 + 2 + key.length];
        int at = header(out, CHECKPOINT, id);
        LONG.set(out, at, first);
        LONG.set(out, at + 8, last);
        out[at + 16] = (byte) (firstFixed ? FIRST_FIXED : 0);
        SHORT.set(out, at + 17, (short) key.length);
        System.arraycopy(key, 0, out, at + 19, key.length);
        return out;
    }

    /** The INDEX_CHECKPOINT record of the checkpoint file with {@code nonce} and {@code start}. */
    static byte[] indexCheckpoint(long nonce, long start) {
        byte[] out = new byte[1 + 1 + 8 + 8];
        int at = header(out, INDEX_CHECKPOINT, 0);
        LONG.set(out, at, nonce);
        LONG.set(out, at + 8, start);
        return out;
    }

    private static int header(byte[] out, byte kind, int id) {
        out[0] = kind;
        int at = 1;
        int rest = id;
        while ((rest & ~0x7F) != 0) {
            out[at++] = (byte) ((rest & 0x7F) | 0x80);
            rest >>>= 7;
        }
        out[at++] = (byte) rest;
        return at;
    }

    static int varintLength(int id) {
        if (id < 0) {
            throw new IllegalArgumentException("group id " + id + " is negative");
        }
        return id < 1 << 7 ? 1 : id < 1 << 14 ? 2 : id < 1 << 21 ? 3 : id < 1 << 28 ? 4 : 5;
    }

    // ---- reading: absolute gets from the record's position, which stays where it is

    static byte kind(ByteBuffer record) {
        return record.get(record.position());
    }

    static int groupId(ByteBuffer record) {
        int at = record.position() + 1;
        int id = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            byte b = record.get(at++);
            id |= (b & 0x7F) << shift;
            if (b >= 0) {
                return id;
            }
        }
        throw new IllegalArgumentException("group id varint longer than 5 bytes at record offset " + record.position());
    }

    /** Where the fields after the kind and the id start, as an absolute offset in {@code record}. */
    static int fieldsAt(ByteBuffer record) {
        return record.position() + 1 + varintLength(groupId(record));
    }

    /** The log index of an entry-bearing record, or the index a marker names. */
    static long index(ByteBuffer record) {
        return record.getLong(fieldsAt(record));
    }

    /** The term of a DATA, DATA_CHECKSUM, ENTRY or RESET record. */
    static long term(ByteBuffer record) {
        return record.getLong(fieldsAt(record) + 8);
    }

    /** Whether a DATA, DATA_CHECKSUM, ENTRY or RESET record holds a configuration entry. */
    static boolean isConfiguration(ByteBuffer record, int configurationType) {
        byte kind = kind(record);
        return (kind == ENTRY || kind == RESET) && Byte.toUnsignedInt(record.get(fieldsAt(record) + INDEX_TERM)) == configurationType;
    }

    /** The group key of a GROUP or CHECKPOINT record. */
    static String key(ByteBuffer record) {
        int at = fieldsAt(record) + (kind(record) == CHECKPOINT ? 17 : 0);
        int length = Short.toUnsignedInt(record.getShort(at));
        byte[] key = new byte[length];
        record.get(at + 2, key, 0, length);
        return new String(key, StandardCharsets.UTF_8);
    }

    /** CHECKPOINT fields. */
    static long checkpointLast(ByteBuffer record) {
        return record.getLong(fieldsAt(record) + 8);
    }

    static boolean checkpointFirstFixed(ByteBuffer record) {
        return (record.get(fieldsAt(record) + 16) & FIRST_FIXED) != 0;
    }

    /** INDEX_CHECKPOINT fields. */
    static long indexCheckpointNonce(ByteBuffer record) {
        return record.getLong(fieldsAt(record));
    }

    static long indexCheckpointStart(ByteBuffer record) {
        return record.getLong(fieldsAt(record) + 8);
    }
}
