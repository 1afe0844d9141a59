package dev.commitlog.replay;

import static dev.commitlog.section.SectionDescriptor.*;

import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.section.SectionBytes;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The damage {@link SegmentMutator} does that knows the layout of a sectioned segment (format
 * version 3, docs/format.md "Sections"): a section header's fields rewritten, its body changed, its
 * padding dirtied, the zero word after the last section overwritten, a section copied elsewhere.
 * Each may recompute the section's CRCs over what it changed, so that only the checks they do not
 * cover can notice: the GCM tag, decompression to the logical length, the logical start the reader
 * expects, and the frames' own CRCs inside.
 */
final class SectionMutations {
    /** Header fields as (offset, width in bytes); the nonce is rewritten one byte at a time. */
    private static final int[][] FIELDS = {{CODEC_OFFSET, 1}, {CIPHER_OFFSET, 1}, {RESERVED_OFFSET, 2}, {LOGICAL_START_OFFSET, 8},
            {LOGICAL_LENGTH_OFFSET, 4}, {STORED_LENGTH_OFFSET, 4}, {KEY_ID_OFFSET, 4}, {NONCE_OFFSET, 1}, {BODY_CRC_OFFSET, 4},
            {HEADER_CRC_OFFSET, 4}};

    private final FuzzChoices choices;
    private final Map<String, byte[]> files;

    SectionMutations(FuzzChoices choices, Map<String, byte[]> files) {
        this.choices = choices;
        this.files = files;
    }

    /** Applies {@code kind} to {@code bytes} (the file {@code files} holds under its name); returns what was done, or null for nothing. */
    String apply(SegmentMutator.Kind kind, byte[] bytes) {
        List<Integer> sections = SectionBytes.sectionOffsets(bytes);
        return switch (kind) {
            case SECTION_FIELD -> sections.isEmpty() ? null : rewriteField(bytes, pick(sections), sections);
            case SECTION_BODY -> sections.isEmpty() ? null : changeBody(bytes, pick(sections));
            case SECTION_PADDING -> dirtyPadding(bytes, sections);
            case ZERO_WORD -> overwriteZeroWord(bytes, sections);
            case SECTION_COPY -> copySection(bytes, sections);
            default -> throw new IllegalArgumentException(kind + " is not a section mutation");
        };
    }

    private String rewriteField(byte[] bytes, int at, List<Integer> sections) {
        int[] field = FIELDS[choices.intInRange(0, FIELDS.length - 1)];
        int offset = field[0] == NONCE_OFFSET ? NONCE_OFFSET + choices.intInRange(0, NONCE_LENGTH - 1) : field[0];
        ByteBuffer header = little(bytes);
        long old = read(header, at + offset, field[1]);
        long value = switch (choices.intInRange(0, 4)) {
            case 0 -> old + choices.intInRange(-9, 9);
            case 1 -> 0;
            case 2 -> field[0] == LOGICAL_START_OFFSET ? SectionBytes.logicalEnd(bytes, pick(sections)) // another section's place
                    : old + (long) ALIGNMENT * choices.intInRange(-64, 64);
            case 3 -> field[0] == KEY_ID_OFFSET || field[0] == CODEC_OFFSET || field[0] == CIPHER_OFFSET ? choices.intInRange(0, 3) : -old;
            default -> choices.anyLong();
        };
        write(header, at + offset, field[1], value);
        boolean crc = field[0] != HEADER_CRC_OFFSET && choices.bool();
        if (crc) {
            SectionBytes.recomputeHeaderCrc(bytes, at);
        }
        return "section at " + at + ": header byte " + offset + " = " + value + (crc ? " with a valid header CRC" : "");
    }

    private String changeBody(byte[] bytes, int at) {
        int stored = SectionBytes.storedLength(bytes, at);
        if (stored <= 0) {
            return null;
        }
        int body = at + HEADER_LENGTH;
        int from = body + choices.intInRange(0, stored - 1);
        int length = choices.intInRange(1, Math.min(64, body + stored - from));
        String what;
        switch (choices.intInRange(0, 2)) {
            case 0 -> {
                int bit = choices.intInRange(0, 7);
                bytes[from] ^= (byte) (1 << bit);
                length = 1;
                what = "bit " + bit + " of byte " + from;
            }
            case 1 -> {
                byte[] garbage = choices.bytes(length);
                System.arraycopy(garbage, 0, bytes, from, garbage.length);
                what = garbage.length + " bytes at " + from;
            }
            default -> {
                Arrays.fill(bytes, from, from + length, (byte) 0);
                what = length + " zero bytes at " + from;
            }
        }
        boolean crcs = choices.intInRange(0, 3) != 0;
        if (crcs) {
            SectionBytes.recomputeCrcs(bytes, at);
        }
        return "section at " + at + ": body " + what + (crcs ? ", both CRCs recomputed" : "");
    }

    private String dirtyPadding(byte[] bytes, List<Integer> sections) {
        List<Integer> padded = sections.stream().filter(at -> SectionBytes.storedLength(bytes, at) % ALIGNMENT != 0).toList();
        if (padded.isEmpty()) {
            return null;
        }
        int at = pick(padded);
        int stored = SectionBytes.storedLength(bytes, at);
        int paddingAt = at + HEADER_LENGTH + stored + choices.intInRange(0, ALIGNMENT - 1 - stored % ALIGNMENT);
        bytes[paddingAt] = (byte) choices.intInRange(1, 255);
        boolean crcs = choices.bool();
        if (crcs) {
            SectionBytes.recomputeCrcs(bytes, at);
        }
        return "section at " + at + ": padding byte " + paddingAt + " = " + (bytes[paddingAt] & 0xff) + (crcs ? ", CRCs recomputed" : "");
    }

    /** The zero word after the last section (offset 64 when there is none): nothing written there, until now. */
    private String overwriteZeroWord(byte[] bytes, List<Integer> sections) {
        int at = zeroWordAt(bytes, sections);
        if (at + Long.BYTES > bytes.length) {
            return null;
        }
        long value = switch (choices.intInRange(0, 2)) {
            case 0 -> MAGIC;
            case 1 -> 1L << choices.intInRange(0, 63);
            default -> choices.anyLong();
        };
        little(bytes).putLong(at, value);
        return "zero word at " + at + " = " + value;
    }

    /**
     * A section (of this life or an earlier one, from any file) copied to an aligned offset of this
     * file, often where the reader looks next; its logical start may be rewritten to the one the
     * reader expects there, and its header CRC recomputed under this file's salt and offset.
     */
    private String copySection(byte[] bytes, List<Integer> sections) {
        List<String> names = new ArrayList<>(files.keySet());
        String sourceName = names.get(choices.intInRange(0, names.size() - 1));
        byte[] source = files.get(sourceName);
        List<Integer> found = magicOffsets(source);
        if (found.isEmpty()) {
            return null;
        }
        int from = pick(found);
        int length = (int) Math.min(sectionLength(Math.max(0, SectionBytes.storedLength(source, from))), source.length - from);
        int to = choices.bool() ? zeroWordAt(bytes, sections) : SegmentDescriptor.SEGMENT_HEADER_LENGTH
                + ALIGNMENT * choices.intInRange(0, Math.max(0, (bytes.length - SegmentDescriptor.SEGMENT_HEADER_LENGTH) / ALIGNMENT - 1));
        length = Math.min(length, bytes.length - to);
        if (length < HEADER_LENGTH) {
            return null;
        }
        System.arraycopy(source == bytes ? source.clone() : source, from, bytes, to, length); // the ranges may overlap
        String detail = "section at " + from + " of " + sourceName + " copied to " + to;
        if (choices.bool()) {
            int previous = sections.stream().filter(at -> at < to).reduce((a, b) -> b).orElse(-1);
            long expected = previous < 0 ? little(bytes).getLong(SegmentDescriptor.BASE_POSITION_OFFSET) + SegmentDescriptor.SEGMENT_HEADER_LENGTH
                    : SectionBytes.logicalEnd(bytes, previous);
            little(bytes).putLong(to + LOGICAL_START_OFFSET, expected);
            detail += ", logical start " + expected;
        }
        if (choices.bool()) {
            SectionBytes.recomputeHeaderCrc(bytes, to);
            detail += ", header CRC recomputed";
        }
        return detail;
    }

    private static int zeroWordAt(byte[] bytes, List<Integer> sections) {
        if (sections.isEmpty()) {
            return SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        }
        int last = sections.get(sections.size() - 1);
        return (int) (last + sectionLength(SectionBytes.storedLength(bytes, last)));
    }

    /** Every aligned offset past the segment header where a section's magic stands. */
    private static List<Integer> magicOffsets(byte[] bytes) {
        ByteBuffer buffer = little(bytes);
        List<Integer> offsets = new ArrayList<>();
        for (int at = SegmentDescriptor.SEGMENT_HEADER_LENGTH; at + HEADER_LENGTH <= bytes.length; at += ALIGNMENT) {
            if (buffer.getInt(at) == MAGIC) {
                offsets.add(at);
            }
        }
        return offsets;
    }

    private int pick(List<Integer> offsets) {
        return offsets.get(choices.intInRange(0, offsets.size() - 1));
    }

    private static long read(ByteBuffer buffer, int at, int width) {
        return switch (width) {
            case 1 -> buffer.get(at);
            case 2 -> buffer.getShort(at);
            case 4 -> buffer.getInt(at);
            default -> buffer.getLong(at);
        };
    }

    private static void write(ByteBuffer buffer, int at, int width, long value) {
        switch (width) {
            case 1 -> buffer.put(at, (byte) value);
            case 2 -> buffer.putShort(at, (short) value);
            case 4 -> buffer.putInt(at, (int) value);
            default -> buffer.putLong(at, value);
        }
    }

    private static ByteBuffer little(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
}
