package dev.commitlog.replay;

import static dev.commitlog.format.SegmentDescriptor.*;

import dev.commitlog.format.FrameChecksum;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.segment.SegmentHeader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * Damages a copy of the {@link PristineLog}'s segment files as the choices say: bit flips,
 * truncations, garbage appended or written over, zeroed ranges, duplicated and swapped 512-byte
 * sectors, forged headers, durable marks and length words (with or without a matching checksum),
 * forged valid records, cloned and deleted segment files; in a sectioned log also the damage
 * {@link SectionMutations} does, which knows the sections' layout. Offsets favour frame (or
 * section) boundaries and header fields, where the reader makes its decisions.
 *
 * <p>A forged record whose checksum the mutator computed is a valid record as far as any reader
 * can tell; {@link Mutated#forged()} lists them so the checker may accept them.
 */
final class SegmentMutator {
    static final int SECTOR = 512;
    static final int MAX_MUTATIONS = 6;

    /** The kinds for any log, then those for sectioned logs only ({@link SectionMutations}), which a plain log never draws. */
    enum Kind {
        BIT_FLIP, TRUNCATE, APPEND_GARBAGE, OVERWRITE_GARBAGE, ZERO_RANGE, DUPLICATE_SECTOR, SWAP_SECTORS,
        FORGE_HEADER, FORGE_DURABLE_MARK, FORGE_LENGTH, FORGE_RECORD, CLONE_SEGMENT, DELETE_SEGMENT,
        SECTION_FIELD, SECTION_BODY, SECTION_PADDING, ZERO_WORD, SECTION_COPY
    }

    private static final Kind[] KINDS = Kind.values();
    /** How many kinds a plain log draws from: the choices of a saved plain input keep their meaning. */
    private static final int PLAIN_KINDS = Kind.SECTION_FIELD.ordinal();
    private static final int[] HEADER_FIELDS = {MAGIC_OFFSET, VERSION_OFFSET, HEADER_LENGTH_OFFSET, SEGMENT_ID_OFFSET,
            BASE_POSITION_OFFSET, SEGMENT_SIZE_OFFSET, SALT_OFFSET, HEADER_CRC_OFFSET};

    /** The damaged files, the valid records forged into them (position to payload), and what was done. */
    record Mutated(TreeMap<String, byte[]> files, Map<Long, List<byte[]>> forged, List<String> applied) {
    }

    private final PristineLog pristine;
    private final FuzzChoices choices;
    private final TreeMap<String, byte[]> files;
    private final Map<Long, List<byte[]>> forged = new HashMap<>();
    private final List<String> applied = new ArrayList<>();

    private SegmentMutator(PristineLog pristine, FuzzChoices choices) {
        this.pristine = pristine;
        this.choices = choices;
        this.files = pristine.copyOfFiles();
    }

    static Mutated mutate(PristineLog pristine, FuzzChoices choices) {
        SegmentMutator mutator = new SegmentMutator(pristine, choices);
        int count = choices.intInRange(0, MAX_MUTATIONS);
        int kinds = pristine.isSectioned() ? KINDS.length : PLAIN_KINDS;
        for (int i = 0; i < count && !mutator.files.isEmpty(); i++) {
            mutator.apply(KINDS[choices.intInRange(0, kinds - 1)]);
        }
        mutator.addForgedAsTheyNowStand();
        return new Mutated(mutator.files, mutator.forged, mutator.applied);
    }

    /**
     * A later mutation can change a forged record's payload and leave its checksum valid: CRC32C
     * is linear, so overwriting a frame header nested in the payload (length word, then the CRC of
     * position and length word) by another valid one changes the outer CRC by zero. Any reader
     * must accept the record as it now stands, so each forged position also lists the payload of
     * every frame that still verifies there, in any file, after all mutations.
     */
    private void addForgedAsTheyNowStand() {
        FrameChecksum checksum = new FrameChecksum();
        for (byte[] bytes : files.values()) {
            long base = baseOf(bytes);
            ByteBuffer frame = little(bytes);
            for (Map.Entry<Long, List<byte[]>> entry : forged.entrySet()) {
                long at = entry.getKey() - base;
                if (at < SEGMENT_HEADER_LENGTH || at > bytes.length - RecordDescriptor.FRAME_HEADER_LENGTH) {
                    continue;
                }
                int lengthWord = frame.getInt((int) at);
                int payloadLength = lengthWord - RecordDescriptor.FRAME_HEADER_LENGTH;
                int payloadStart = (int) at + RecordDescriptor.FRAME_HEADER_LENGTH;
                if (payloadLength < 0 || payloadLength > bytes.length - payloadStart) {
                    continue;
                }
                int stored = frame.getInt((int) at + RecordDescriptor.CRC_OFFSET);
                if (checksum.begin(entry.getKey(), lengthWord).update(bytes, payloadStart, payloadLength).value() == stored) {
                    entry.getValue().add(Arrays.copyOfRange(bytes, payloadStart, payloadStart + payloadLength));
                }
            }
        }
    }

    private void apply(Kind kind) {
        String name = pickFile();
        byte[] bytes = files.get(name);
        switch (kind) {
            case BIT_FLIP -> {
                if (bytes.length == 0) {
                    return;
                }
                int at = offset(name, bytes.length - 1);
                int bit = choices.intInRange(0, 7);
                bytes[at] ^= (byte) (1 << bit);
                note(kind, name, "byte " + at + " bit " + bit);
            }
            case TRUNCATE -> {
                int length = choices.bool() ? choices.intInRange(0, bytes.length) : offset(name, bytes.length);
                files.put(name, Arrays.copyOf(bytes, length));
                note(kind, name, "to " + length + " bytes");
            }
            case APPEND_GARBAGE -> {
                byte[] garbage = choices.bytes(2 * SECTOR);
                byte[] longer = Arrays.copyOf(bytes, bytes.length + garbage.length);
                System.arraycopy(garbage, 0, longer, bytes.length, garbage.length);
                files.put(name, longer);
                note(kind, name, garbage.length + " bytes");
            }
            case OVERWRITE_GARBAGE -> {
                int at = offset(name, bytes.length);
                byte[] garbage = choices.bytes(Math.min(2 * SECTOR, bytes.length - at));
                System.arraycopy(garbage, 0, bytes, at, garbage.length);
                note(kind, name, garbage.length + " bytes at " + at);
            }
            case ZERO_RANGE -> {
                int at = offset(name, bytes.length);
                int length = choices.intInRange(0, Math.min(16 * SECTOR, bytes.length - at));
                Arrays.fill(bytes, at, at + length, (byte) 0);
                note(kind, name, length + " bytes at " + at);
            }
            case DUPLICATE_SECTOR, SWAP_SECTORS -> {
                int sectors = bytes.length / SECTOR;
                if (sectors == 0) {
                    return;
                }
                int from = choices.intInRange(0, sectors - 1) * SECTOR;
                int to = choices.intInRange(0, sectors - 1) * SECTOR;
                byte[] saved = Arrays.copyOfRange(bytes, to, to + SECTOR);
                System.arraycopy(bytes, from, bytes, to, SECTOR);
                if (kind == Kind.SWAP_SECTORS) {
                    System.arraycopy(saved, 0, bytes, from, SECTOR);
                }
                note(kind, name, "sector at " + from + " and " + to);
            }
            case FORGE_HEADER -> forgeHeader(name, bytes);
            case FORGE_DURABLE_MARK -> forgeDurableMark(name, bytes);
            case FORGE_LENGTH -> forgeLength(name, bytes);
            case FORGE_RECORD -> forgeRecord(name, bytes);
            case CLONE_SEGMENT -> {
                long id = parseId(files.lastKey()) + choices.intInRange(1, 2);
                String clone = fileName(id);
                byte[] copy = bytes.clone();
                if (copy.length >= SEGMENT_HEADER_LENGTH && choices.bool()) {
                    ByteBuffer header = little(copy);
                    header.putLong(SEGMENT_ID_OFFSET, id);
                    header.putInt(HEADER_CRC_OFFSET, headerCrc(header)); // a clone that passes the header check
                }
                files.put(clone, copy);
                note(kind, name, "as " + clone);
            }
            case DELETE_SEGMENT -> {
                files.remove(name);
                note(kind, name, "");
            }
            case SECTION_FIELD, SECTION_BODY, SECTION_PADDING, ZERO_WORD, SECTION_COPY -> {
                String detail = new SectionMutations(choices, files).apply(kind, bytes);
                if (detail != null) {
                    note(kind, name, detail);
                }
            }
            default -> throw new IllegalStateException(kind.toString());
        }
    }

    private void forgeHeader(String name, byte[] bytes) {
        if (bytes.length < SEGMENT_HEADER_LENGTH) {
            return;
        }
        ByteBuffer header = little(bytes);
        int field = HEADER_FIELDS[choices.intInRange(0, HEADER_FIELDS.length - 1)];
        boolean wide = field == MAGIC_OFFSET || field == SEGMENT_ID_OFFSET || field == BASE_POSITION_OFFSET;
        long old = wide ? header.getLong(field) : header.getInt(field);
        long value = switch (choices.intInRange(0, 4)) {
            case 0 -> old + choices.intInRange(-2, 2);
            case 1 -> old + (long) choices.intInRange(-2, 2) * PristineLog.SEGMENT_SIZE; // another segment's base or id
            case 2 -> pickPristineBase();
            case 3 -> 0;
            default -> choices.anyLong();
        };
        if (wide) {
            header.putLong(field, value);
        } else {
            header.putInt(field, (int) value);
        }
        boolean crc = field != HEADER_CRC_OFFSET && choices.bool();
        if (crc) {
            header.putInt(HEADER_CRC_OFFSET, headerCrc(header));
        }
        note(Kind.FORGE_HEADER, name, "field at " + field + " = " + value + (crc ? " with a valid header checksum" : ""));
    }

    private void forgeDurableMark(String name, byte[] bytes) {
        if (bytes.length < SEGMENT_HEADER_LENGTH) {
            return;
        }
        ByteBuffer header = little(bytes);
        long mark = switch (choices.intInRange(0, 4)) {
            case 0 -> 0;
            case 1 -> pristine.endPosition + choices.intInRange(-64, 64 * 1024);
            case 2 -> pickPristineBase() + choices.intInRange(0, PristineLog.SEGMENT_SIZE);
            case 3 -> Long.MAX_VALUE;
            default -> choices.anyLong();
        };
        header.putLong(DURABLE_MARK_OFFSET, mark);
        boolean crc = choices.bool();
        header.putInt(DURABLE_MARK_CRC_OFFSET, crc ? SegmentHeader.durableMarkCrc(header.getLong(SEGMENT_ID_OFFSET), mark) : choices.intInRange(Integer.MIN_VALUE, Integer.MAX_VALUE));
        note(Kind.FORGE_DURABLE_MARK, name, mark + (crc ? " with a valid checksum" : ""));
    }

    private void forgeLength(String name, byte[] bytes) {
        int at = alignedOffset(name, bytes.length - RecordDescriptor.FRAME_HEADER_LENGTH);
        if (at < 0) {
            return;
        }
        ByteBuffer frame = little(bytes);
        int length = switch (choices.intInRange(0, 6)) {
            case 0 -> 0;
            case 1 -> RecordDescriptor.END_OF_SEGMENT;
            case 2 -> -RecordDescriptor.ALIGNMENT * choices.intInRange(0, 2 * PristineLog.SEGMENT_SIZE / RecordDescriptor.ALIGNMENT);
            case 3 -> choices.intInRange(1, RecordDescriptor.FRAME_HEADER_LENGTH + 1);
            case 4 -> bytes.length - at + choices.intInRange(-16, 16);
            case 5 -> frame.getInt(at) + choices.intInRange(-9, 9);
            default -> choices.intInRange(Integer.MIN_VALUE, Integer.MAX_VALUE);
        };
        frame.putInt(at, length);
        boolean crc = length <= 0 && choices.bool(); // markers carry a header-only checksum
        if (crc) {
            frame.putInt(at + RecordDescriptor.CRC_OFFSET, new FrameChecksum().headerOnly(baseOf(bytes) + at, length));
        }
        note(Kind.FORGE_LENGTH, name, "at " + at + " = " + length + (crc ? " with a valid checksum" : ""));
    }

    private void forgeRecord(String name, byte[] bytes) {
        int at = alignedOffset(name, bytes.length - RecordDescriptor.FRAME_HEADER_LENGTH);
        if (at < 0) {
            return;
        }
        int room = bytes.length - at - RecordDescriptor.FRAME_HEADER_LENGTH;
        int payloadLength = choices.intInRange(0, Math.min(room, 3 * SECTOR));
        byte[] payload = Arrays.copyOfRange(bytes, at + RecordDescriptor.FRAME_HEADER_LENGTH, at + RecordDescriptor.FRAME_HEADER_LENGTH + payloadLength);
        int frameLength = RecordDescriptor.frameLength(payloadLength);
        long position = baseOf(bytes) + at;
        ByteBuffer frame = little(bytes);
        frame.putInt(at, frameLength);
        frame.putInt(at + RecordDescriptor.CRC_OFFSET, new FrameChecksum().begin(position, frameLength).update(payload, 0, payloadLength).value());
        int paddingEnd = Math.min(bytes.length, at + RecordDescriptor.alignedLength(frameLength));
        Arrays.fill(bytes, at + frameLength, paddingEnd, (byte) 0);
        forged.computeIfAbsent(position, p -> new ArrayList<>()).add(payload); // clones may share positions
        note(Kind.FORGE_RECORD, name, payloadLength + " bytes at " + at + " (position " + position + ")");
    }

    /** Where the file's header (as it now stands) says it starts; 0 when it is too short to say. */
    private static long baseOf(byte[] bytes) {
        return bytes.length >= SEGMENT_HEADER_LENGTH ? little(bytes).getLong(BASE_POSITION_OFFSET) : 0;
    }

    private String pickFile() {
        int index = choices.intInRange(0, files.size() - 1);
        return new ArrayList<>(files.keySet()).get(index);
    }

    private long pickPristineBase() {
        List<String> names = new ArrayList<>(pristine.files.keySet());
        return pristine.basePosition(names.get(choices.intInRange(0, names.size() - 1)));
    }

    /** An offset in {@code [0, max]}: often a pristine frame boundary or a header field, otherwise anywhere. */
    private int offset(String name, int max) {
        if (max <= 0) {
            return 0;
        }
        int offset = switch (choices.intInRange(0, 3)) {
            case 0 -> {
                List<Integer> frames = pristine.frameOffsets(name);
                yield frames.get(choices.intInRange(0, frames.size() - 1)) + choices.intInRange(0, 15);
            }
            case 1 -> choices.intInRange(0, SEGMENT_HEADER_LENGTH - 1);
            default -> choices.intInRange(0, max);
        };
        return Math.min(offset, max);
    }

    /** An 8-byte aligned offset at or before {@code max}, or -1 when the file has no room. */
    private int alignedOffset(String name, int max) {
        if (max < SEGMENT_HEADER_LENGTH) {
            return -1;
        }
        return Math.max(SEGMENT_HEADER_LENGTH, offset(name, max) & -RecordDescriptor.ALIGNMENT);
    }

    private static ByteBuffer little(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static int headerCrc(ByteBuffer header) {
        CRC32C crc = new CRC32C();
        crc.update(header.array(), 0, HEADER_CRC_COVERS);
        return (int) crc.getValue();
    }

    private void note(Kind kind, String name, String detail) {
        applied.add(kind + " " + name + " " + detail);
    }
}
