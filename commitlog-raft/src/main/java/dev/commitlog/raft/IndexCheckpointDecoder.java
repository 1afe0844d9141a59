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
import static dev.commitlog.raft.IndexCheckpointDescriptor.NEXT_ID_OFFSET;
import static dev.commitlog.raft.IndexCheckpointDescriptor.NONCE_OFFSET;
import static dev.commitlog.raft.IndexCheckpointDescriptor.START_OFFSET;
import static dev.commitlog.raft.IndexCheckpointDescriptor.STEP;
import static dev.commitlog.raft.IndexCheckpointDescriptor.VERSION;
import static dev.commitlog.raft.IndexCheckpointDescriptor.VERSION_OFFSET;

import dev.commitlog.raft.RefusedCheckpoint.Reason;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Reads an index checkpoint file ({@link IndexCheckpointDescriptor}) into group states. The CRC is
 * checked before anything else is read, and every field is checked against the layout's rules as
 * it is read: a file that breaks one is refused, never half-used (the states built so far are
 * dropped with it).
 */
final class IndexCheckpointDecoder {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    /** The header's fields. */
    record Header(long start, long mark, long nonce, int nextId, int groups) {
    }

    private final String file;
    private final byte[] bytes;
    private final int end;
    private int at;

    private IndexCheckpointDecoder(String file, byte[] bytes) {
        this.file = file;
        this.bytes = bytes;
        this.end = bytes.length - CRC_LENGTH;
        this.at = HEADER_LENGTH;
    }

    /**
     * The header of {@code bytes}, once its length, magic, version and CRC hold.
     *
     * @throws RefusedCheckpoint (DAMAGED) if one does not
     */
    static Header header(String file, byte[] bytes) throws RefusedCheckpoint {
        if (bytes.length < HEADER_LENGTH + CRC_LENGTH) {
            throw new RefusedCheckpoint(Reason.DAMAGED, file, bytes.length + " bytes, shorter than a header and a CRC");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - CRC_LENGTH);
        int stored = (int) INT.get(bytes, bytes.length - CRC_LENGTH);
        if ((int) crc.getValue() != stored) {
            throw new RefusedCheckpoint(Reason.DAMAGED, file, "CRC32C " + Integer.toHexString((int) crc.getValue()) + " of its "
                    + (bytes.length - CRC_LENGTH) + " bytes, the file says " + Integer.toHexString(stored) + " (torn or damaged)");
        }
        long magic = (long) LONG.get(bytes, MAGIC_OFFSET);
        int version = (int) INT.get(bytes, VERSION_OFFSET);
        int headerLength = (int) INT.get(bytes, HEADER_LENGTH_OFFSET);
        if (magic != MAGIC || version != VERSION || headerLength != HEADER_LENGTH) {
            throw new RefusedCheckpoint(Reason.DAMAGED, file, "magic " + Long.toHexString(magic) + ", version " + version
                    + ", header length " + headerLength + "; this build reads magic " + Long.toHexString(MAGIC) + ", version "
                    + VERSION + ", header length " + HEADER_LENGTH);
        }
        return new Header((long) LONG.get(bytes, START_OFFSET), (long) LONG.get(bytes, MARK_OFFSET),
                (long) LONG.get(bytes, NONCE_OFFSET), (int) INT.get(bytes, NEXT_ID_OFFSET), (int) INT.get(bytes, GROUPS_OFFSET));
    }

    /**
     * The groups of a file whose {@link #header} was read.
     *
     * @throws RefusedCheckpoint (INCONSISTENT) if a field breaks the layout's rules
     */
    static LoadedCheckpoint groups(String file, byte[] bytes, Header header) throws RefusedCheckpoint {
        IndexCheckpointDecoder decoder = new IndexCheckpointDecoder(file, bytes);
        try {
            return decoder.decode(header);
        } catch (RuntimeException e) { // a rule the checks below missed: refused all the same, with what broke it
            throw decoder.inconsistent("unreadable at byte " + decoder.at + ": " + e);
        }
    }

    private LoadedCheckpoint decode(Header header) throws RefusedCheckpoint {
        long start = header.start();
        if (start < 0 || header.mark() < start || header.nextId() < 1 || header.groups() < 0 || header.groups() >= header.nextId()) {
            throw inconsistent("header: start " + start + ", mark " + header.mark() + ", next id " + header.nextId() + ", "
                    + header.groups() + " groups");
        }
        List<GroupState> byId = new ArrayList<>(header.nextId());
        for (int i = 0; i < header.nextId(); i++) {
            byId.add(null);
        }
        long[] after = new long[header.nextId()];
        Set<String> keys = new HashSet<>();
        for (int g = 0; g < header.groups(); g++) {
            long id = uvarint();
            if (id < 1 || id >= header.nextId() || byId.get((int) id) != null) {
                throw inconsistent("group id " + id + " (the next id is " + header.nextId() + "), or given twice");
            }
            String key = key();
            if (!keys.add(key)) {
                throw inconsistent("group key " + key + " given twice");
            }
            long groupAfter = start + uvarint();
            if (groupAfter < start || groupAfter > header.mark()) {
                throw inconsistent("group " + id + " replayed from " + groupAfter + ", outside [" + start + ", " + header.mark() + "]");
            }
            GroupState state = new GroupState((int) id);
            state.bind(key, below(groupAfter, "base"));
            restoreIndex(state, groupAfter);
            byId.set((int) id, state);
            after[(int) id] = groupAfter;
        }
        if (at != end) {
            throw inconsistent((end - at) + " bytes after the last group");
        }
        return new LoadedCheckpoint(file, bytes.length, start, header.nextId(), byId, after);
    }

    private String key() throws RefusedCheckpoint {
        long length = uvarint();
        if (length > 0xFFFF || length > end - at) {
            throw inconsistent("a group key of " + length + " bytes");
        }
        try {
            String key = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, at, (int) length)).toString();
            at += (int) length;
            return key;
        } catch (CharacterCodingException e) {
            throw inconsistent("a group key that is not UTF-8");
        }
    }

    /** Bounds, configurations and runs of one group, into its fresh state. */
    private void restoreIndex(GroupState state, long after) throws RefusedCheckpoint {
        if (at >= end) {
            throw inconsistent("group " + state.id + " ends after its key");
        }
        int flags = bytes[at++];
        long first = svarint();
        long count = uvarint();
        if ((flags & ~FIRST_FIXED) != 0 || count > Integer.MAX_VALUE - 8 || first < 0 || first > Long.MAX_VALUE - count) {
            throw inconsistent("group " + state.id + ": flags " + flags + ", first index " + first + ", " + count + " slots");
        }
        PositionIndex index = state.index();
        index.restoreBounds(first, first + count - 1, (flags & FIRST_FIXED) != 0);
        long configurations = uvarint();
        if (configurations > count) {
            throw inconsistent("group " + state.id + ": " + configurations + " configurations in " + count + " slots");
        }
        for (long c = 0; c < configurations; c++) {
            long offset = uvarint();
            if (offset >= count) {
                throw inconsistent("group " + state.id + ": a configuration at slot " + offset + " of " + count);
            }
            state.configurations().put(first + offset, below(after, "configuration"));
        }
        long previous = 0;
        long slot = 0;
        while (slot < count) {
            long head = uvarint();
            long slots = head >>> 2;
            int type = (int) (head & 3);
            if (slots < 1 || slots > count - slot) {
                throw inconsistent("group " + state.id + ": a run of " + slots + " slots at slot " + slot + " of " + count);
            }
            if (type == HOLES) {
                slot += slots;
                continue;
            }
            if (type == STEP) {
                long position = previous + svarint();
                long step = slots > 1 ? svarint() : 0;
                for (long i = 0; i < slots; i++, position += step) {
                    index.load(first + slot + i, position(position, after, state));
                    previous = position;
                }
            } else if (type == LITERAL) {
                for (long i = 0; i < slots; i++) {
                    previous += svarint();
                    index.load(first + slot + i, position(previous, after, state));
                }
            } else {
                throw inconsistent("group " + state.id + ": run type " + type);
            }
            slot += slots;
        }
        index.loaded();
    }

    /** {@code after} minus the next uvarint, which must leave a position in [0, after). */
    private long below(long after, String what) throws RefusedCheckpoint {
        long distance = uvarint();
        if (distance < 1 || distance > after) {
            throw inconsistent(what + " position " + (after - distance) + " outside [0, " + after + ")");
        }
        return after - distance;
    }

    private long position(long position, long after, GroupState state) throws RefusedCheckpoint {
        if (position < 0 || position >= after) {
            throw inconsistent("group " + state.id + ": an entry at position " + position + ", outside [0, " + after + ")");
        }
        return position;
    }

    private long svarint() throws RefusedCheckpoint {
        long raw = uvarint();
        return (raw >>> 1) ^ -(raw & 1);
    }

    private long uvarint() throws RefusedCheckpoint {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at >= end) {
                throw inconsistent("a varint running past the last group");
            }
            byte b = bytes[at++];
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw inconsistent("a varint longer than 10 bytes at byte " + at);
    }

    private RefusedCheckpoint inconsistent(String detail) {
        return new RefusedCheckpoint(Reason.INCONSISTENT, file, detail);
    }
}
