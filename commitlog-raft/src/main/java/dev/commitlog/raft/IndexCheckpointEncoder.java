package dev.commitlog.raft;

import static dev.commitlog.raft.IndexCheckpointDescriptor.CRC_LENGTH;
import static dev.commitlog.raft.IndexCheckpointDescriptor.FIRST_FIXED;
import static dev.commitlog.raft.IndexCheckpointDescriptor.GROUPS_OFFSET;
import static dev.commitlog.raft.IndexCheckpointDescriptor.HEADER_LENGTH;
import static dev.commitlog.raft.IndexCheckpointDescriptor.HEADER_LENGTH_OFFSET;
import static dev.commitlog.raft.IndexCheckpointDescriptor.HOLES;
import static dev.commitlog.raft.IndexCheckpointDescriptor.LITERAL;
import static dev.commitlog.raft.IndexCheckpointDescriptor.MAGIC;
import static dev.commitlog.raft.IndexCheckpointDescriptor.MAGIC_OFFSET;
import static dev.commitlog.raft.IndexCheckpointDescriptor.MARK_OFFSET;
import static dev.commitlog.raft.IndexCheckpointDescriptor.MIN_STEP_RUN;
import static dev.commitlog.raft.IndexCheckpointDescriptor.NEXT_ID_OFFSET;
import static dev.commitlog.raft.IndexCheckpointDescriptor.NONCE_OFFSET;
import static dev.commitlog.raft.IndexCheckpointDescriptor.START_OFFSET;
import static dev.commitlog.raft.IndexCheckpointDescriptor.STEP;
import static dev.commitlog.raft.IndexCheckpointDescriptor.VERSION;
import static dev.commitlog.raft.IndexCheckpointDescriptor.VERSION_OFFSET;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Writes one index checkpoint file in memory ({@link IndexCheckpointDescriptor} gives the layout):
 * the header, then one group at a time as the caller hands them over, each under its mutex, then
 * the trailer. Entry positions go as runs: a group's consecutive entries appended back to back with
 * equal sizes are one STEP run of a few bytes, holes one HOLES run, the rest a delta each.
 */
final class IndexCheckpointEncoder {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private final long start;
    private byte[] bytes = new byte[4096];
    private int length = HEADER_LENGTH;
    private int groups;

    IndexCheckpointEncoder(long start, int nextId) {
        this.start = start;
        LONG.set(bytes, MAGIC_OFFSET, MAGIC);
        INT.set(bytes, VERSION_OFFSET, VERSION);
        INT.set(bytes, HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        LONG.set(bytes, START_OFFSET, start);
        INT.set(bytes, NEXT_ID_OFFSET, nextId);
    }

    /**
     * Adds {@code group} as it stands, holding every record of it below {@code after} (a log
     * position at or past {@code start}) and none at or above. Call under the group's mutex.
     */
    void group(GroupState group, long after) {
        PositionIndex index = group.index();
        long first = index.first();
        int count = (int) Math.max(0, index.last() - first + 1);
        uvarint(group.id);
        byte[] key = group.keyBytes();
        uvarint(key.length);
        put(key);
        uvarint(after - start);
        uvarint(after - group.basePosition());
        putByte(index.firstFixed() ? FIRST_FIXED : 0);
        svarint(first);
        uvarint(count);
        Map<Long, Long> configurations = group.configurations();
        uvarint(configurations.size());
        for (Map.Entry<Long, Long> configuration : configurations.entrySet()) {
            uvarint(configuration.getKey() - first);
            uvarint(after - configuration.getValue());
        }
        runs(index, first, count);
        groups++;
    }

    /** The file: the header completed with the INDEX_CHECKPOINT record's position and nonce, and the CRC appended. */
    byte[] finish(long mark, long nonce) {
        LONG.set(bytes, MARK_OFFSET, mark);
        LONG.set(bytes, NONCE_OFFSET, nonce);
        INT.set(bytes, GROUPS_OFFSET, groups);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        ensure(CRC_LENGTH);
        INT.set(bytes, length, (int) crc.getValue());
        length += CRC_LENGTH;
        return Arrays.copyOf(bytes, length);
    }

    /** The runs of the slots {@code first .. first + count - 1}: read from the index, copied nowhere. */
    private void runs(PositionIndex index, long first, int count) {
        long previous = 0;
        int i = 0;
        while (i < count) {
            if (index.get(first + i) < 0) {
                int end = i;
                while (end < count && index.get(first + end) < 0) {
                    end++;
                }
                head(end - i, HOLES);
                i = end;
                continue;
            }
            int step = stepRun(index, first, i, count);
            if (step >= MIN_STEP_RUN) {
                long position = index.get(first + i);
                head(step, STEP);
                svarint(position - previous);
                svarint(index.get(first + i + 1) - position);
                previous = index.get(first + i + step - 1);
                i += step;
                continue;
            }
            int end = i + 1; // a literal run ends at a hole, or where a step run long enough starts
            while (end < count && index.get(first + end) >= 0
                    && stepRun(index, first, end, Math.min(count, end + MIN_STEP_RUN)) < MIN_STEP_RUN) {
                end++;
            }
            head(end - i, LITERAL);
            for (int j = i; j < end; j++) {
                long position = index.get(first + j);
                svarint(position - previous);
                previous = position;
            }
            i = end;
        }
    }

    /** How many slots from {@code from} (below {@code limit}) hold entries at equal distances, at least 1. */
    private static int stepRun(PositionIndex index, long first, int from, int limit) {
        if (from + 1 >= limit || index.get(first + from + 1) < 0) {
            return 1;
        }
        long step = index.get(first + from + 1) - index.get(first + from);
        int end = from + 2;
        while (end < limit && index.get(first + end) >= 0 && index.get(first + end) - index.get(first + end - 1) == step) {
            end++;
        }
        return end - from;
    }

    private void head(int slots, int type) {
        uvarint(((long) slots << 2) | type);
    }

    private void svarint(long value) {
        uvarint((value << 1) ^ (value >> 63));
    }

    private void uvarint(long value) {
        ensure(10);
        long rest = value;
        while ((rest & ~0x7FL) != 0) {
            bytes[length++] = (byte) ((rest & 0x7F) | 0x80);
            rest >>>= 7;
        }
        bytes[length++] = (byte) rest;
    }

    private void putByte(int value) {
        ensure(1);
        bytes[length++] = (byte) value;
    }

    private void put(byte[] value) {
        ensure(value.length);
        System.arraycopy(value, 0, bytes, length, value.length);
        length += value.length;
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            long grown = Math.max((long) length + more, (long) bytes.length * 2);
            if (grown > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("an index checkpoint past 2 GiB: " + grown + " bytes");
            }
            bytes = Arrays.copyOf(bytes, (int) grown);
        }
    }
}
