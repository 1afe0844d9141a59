package dev.commitlog.section;

import static dev.commitlog.section.SectionDescriptor.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.crypto.KeyProvider;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A section that was altered, cut, moved or read with the wrong key decodes to a
 * {@link DamagedSectionException} of the kind that says why, never to bytes and never to an
 * unchecked exception. One named test per case.
 */
class SectionDamageTest {
    private static final long SEGMENT_ID = 9;
    private static final int SALT = 77;
    private static final long FILE_OFFSET = 4096;
    private static final long START = 9L * (32 << 20) + 4096;
    private static final int PLAIN = 200;

    private final TestKeys keys = new TestKeys(1, 3);

    /** Flipping any one byte of an encrypted, compressed section, header, body or padding, is damage. */
    @Test
    void everyFlippedByteOfAnEncryptedSectionIsDamage() {
        ByteBuffer section = encode(Compression.LZ4, Encryption.AES_GCM, json(PLAIN));
        assertNotEquals(CODEC_NONE, section.get(CODEC_OFFSET), "the case covers a compressed body");
        for (int i = 0; i < section.limit(); i++) {
            for (int bit = 0; bit < 8; bit += 7) {
                ByteBuffer flipped = copy(section);
                flipped.put(i, (byte) (flipped.get(i) ^ (1 << bit)));
                SectionDamage damage = damage(flipped, keys);
                SectionDamage expected = i < HEADER_LENGTH ? SectionDamage.BAD_HEADER : SectionDamage.BAD_BODY;
                assertEquals(expected, damage, "byte " + i + " bit " + bit);
            }
        }
    }

    /** The same for an unencrypted, uncompressed section: the CRCs find it without a key. */
    @Test
    void everyFlippedByteOfAPlainSectionIsDamage() {
        ByteBuffer section = encode(Compression.NONE, Encryption.NONE, Payloads.random(new Random(3), 61));
        assertEquals(HEADER_LENGTH + 64, section.limit(), "3 bytes of padding are covered too");
        for (int i = 0; i < section.limit(); i++) {
            ByteBuffer flipped = copy(section);
            flipped.put(i, (byte) (flipped.get(i) ^ 0x10));
            assertNotNull(damage(flipped, null), "byte " + i);
        }
    }

    /** With both CRCs made to fit again (a deliberate edit), the GCM tag still refuses an altered body. */
    @Test
    void anAlteredBodyWithFixedChecksumsIsNotAuthentic() {
        ByteBuffer section = encode(Compression.LZ4, Encryption.AES_GCM, json(PLAIN));
        int stored = section.getInt(STORED_LENGTH_OFFSET);
        for (int i = HEADER_LENGTH; i < HEADER_LENGTH + stored; i++) {
            ByteBuffer altered = copy(section);
            altered.put(i, (byte) (altered.get(i) ^ 1));
            refreshChecksums(altered, SALT, FILE_OFFSET);
            assertEquals(SectionDamage.NOT_AUTHENTIC, damage(altered, keys), "body byte " + (i - HEADER_LENGTH));
        }
    }

    /** Cut anywhere before its end (a torn last write, a short file), a section is truncated, whatever its mode. */
    @ParameterizedTest
    @EnumSource(Compression.class)
    void truncationAtEveryLengthIsTruncated(Compression compression) {
        for (Encryption encryption : Encryption.values()) {
            ByteBuffer section = encode(compression, encryption, json(PLAIN));
            for (int length = 0; length < section.limit(); length++) {
                ByteBuffer cut = copy(section).limit(length);
                assertEquals(SectionDamage.TRUNCATED, damage(cut, keys), compression + " " + encryption + " cut at " + length);
            }
            assertNull(damage(section, keys), "whole, it decodes");
        }
    }

    @Test
    void aZeroWordIsUnwritten() {
        ByteBuffer zeros = ByteBuffer.allocateDirect(HEADER_LENGTH + 64).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(SectionDamage.UNWRITTEN, damage(zeros, keys));
    }

    /** The id a section names is not a key the provider has (a key removed too early): never taken for data damage. */
    @Test
    void anUnknownKeyIdIsUnknownKey() {
        ByteBuffer section = encode(Compression.NONE, Encryption.AES_GCM, json(PLAIN));
        assertEquals(3, section.getInt(KEY_ID_OFFSET), "written under the current key");
        assertEquals(SectionDamage.UNKNOWN_KEY, damage(section, new TestKeys(1, 2)));
        assertEquals(SectionDamage.UNKNOWN_KEY, damage(section, null), "no provider at all");
    }

    /** Another key under the same id (a replaced keystore): the tag does not verify, and no plaintext is left behind. */
    @Test
    void aWrongKeyUnderTheRightIdIsNotAuthenticAndLeavesNoPlaintext() throws Exception {
        ByteBuffer section = encode(Compression.NONE, Encryption.AES_GCM, json(PLAIN));
        ByteBuffer plainOut = ByteBuffer.allocateDirect(1 << 16);
        try (SectionDecoder decoder = new SectionDecoder(new TestKeys(2, 3)).forSegment(SEGMENT_ID, SALT)) {
            DamagedSectionException e = assertThrows(DamagedSectionException.class,
                    () -> decoder.decode(section, 0, FILE_OFFSET, START, plainOut));
            assertEquals(SectionDamage.NOT_AUTHENTIC, e.damage());
            assertEquals(FILE_OFFSET, e.fileOffset());
            assertTrue(e.getMessage().startsWith("damaged section at file offset 4096 (NOT_AUTHENTIC): GCM tag mismatch"), e.getMessage());
        }
        assertEquals(0, plainOut.position());
        for (int i = 0; i < PLAIN; i++) {
            assertEquals(0, plainOut.get(i), "byte " + i + " of plainOut");
        }
    }

    /** An edited key id is caught by the header CRC; with the CRC fixed, by the tag (the key id is authenticated). */
    @Test
    void anEditedKeyIdIsDamage() {
        ByteBuffer section = encode(Compression.LZ4, Encryption.AES_GCM, json(PLAIN));
        ByteBuffer edited = copy(section);
        edited.putInt(KEY_ID_OFFSET, 2);
        assertEquals(SectionDamage.BAD_HEADER, damage(edited, keys));
        refreshChecksums(edited, SALT, FILE_OFFSET);
        assertEquals(SectionDamage.NOT_AUTHENTIC, damage(edited, keys));
    }

    /** The AAD binds a section to its segment: the same bytes read as another segment's do not verify. */
    @Test
    void aSectionReadAsAnotherSegmentsIsNotAuthentic() {
        ByteBuffer section = encode(Compression.ZSTD, Encryption.AES_GCM, json(PLAIN));
        assertEquals(SectionDamage.NOT_AUTHENTIC, damage(section, keys, SEGMENT_ID + 1, SALT, FILE_OFFSET, START));
        assertNull(damage(section, keys, SEGMENT_ID, SALT, FILE_OFFSET, START));
    }

    /** Another life of the file (another salt) fails the header CRC, encrypted or not: a stale section is not data. */
    @Test
    void aSectionOfAnEarlierLifeIsBadHeader() {
        for (Encryption encryption : Encryption.values()) {
            ByteBuffer section = encode(Compression.LZ4, encryption, json(PLAIN));
            assertEquals(SectionDamage.BAD_HEADER, damage(section, keys, SEGMENT_ID, SALT + 1, FILE_OFFSET, START), encryption.name());
        }
    }

    /**
     * A section copied to another file offset fails the header CRC; with the CRC fixed for its new
     * place it holds positions the log does not expect there; with its logical start edited to fit
     * as well, the tag refuses it.
     */
    @Test
    void aSectionMovedToAnotherOffsetIsDamage() {
        ByteBuffer section = encode(Compression.LZ4, Encryption.AES_GCM, json(PLAIN));
        long elsewhere = FILE_OFFSET + 8192;
        long expectedThere = START + 8192;
        assertEquals(SectionDamage.BAD_HEADER, damage(section, keys, SEGMENT_ID, SALT, elsewhere, expectedThere));
        ByteBuffer moved = copy(section);
        refreshChecksums(moved, SALT, elsewhere);
        assertEquals(SectionDamage.MISPLACED, damage(moved, keys, SEGMENT_ID, SALT, elsewhere, expectedThere));
        moved.putLong(LOGICAL_START_OFFSET, expectedThere);
        refreshChecksums(moved, SALT, elsewhere);
        assertEquals(SectionDamage.NOT_AUTHENTIC, damage(moved, keys, SEGMENT_ID, SALT, elsewhere, expectedThere));
    }

    /** A header whose lengths contradict its codec, or claim more than the segment has room for, is refused before the body is read. */
    @Test
    void impossibleLengthsAreBadHeader() {
        ByteBuffer section = encode(Compression.NONE, Encryption.NONE, json(PLAIN));
        ByteBuffer longer = copy(section);
        longer.putInt(LOGICAL_LENGTH_OFFSET, PLAIN + 8);
        refreshChecksums(longer, SALT, FILE_OFFSET);
        assertEquals(SectionDamage.BAD_HEADER, damage(longer, null), "stored length must equal logical length without codec or cipher");
        ByteBuffer huge = copy(section);
        huge.putInt(LOGICAL_LENGTH_OFFSET, Integer.MAX_VALUE).putInt(STORED_LENGTH_OFFSET, Integer.MAX_VALUE);
        refreshChecksums(huge, SALT, FILE_OFFSET);
        assertEquals(SectionDamage.BAD_HEADER, damage(huge, null), "more than the room");
        ByteBuffer codec = copy(section);
        codec.put(CODEC_OFFSET, (byte) 9);
        refreshChecksums(codec, SALT, FILE_OFFSET);
        assertEquals(SectionDamage.BAD_HEADER, damage(codec, null), "unknown codec");
    }

    /** A compressed body that does not decompress to its logical length (a forged body with fitting CRCs) is bad compressed data. */
    @Test
    void aBodyThatDoesNotDecompressIsBadCompressedData() {
        for (Compression compression : new Compression[] {Compression.LZ4, Compression.ZSTD}) {
            ByteBuffer section = encode(compression, Encryption.NONE, json(PLAIN));
            ByteBuffer forged = copy(section);
            forged.putInt(LOGICAL_LENGTH_OFFSET, PLAIN - 1);
            refreshChecksums(forged, SALT, FILE_OFFSET);
            assertEquals(SectionDamage.BAD_COMPRESSED_DATA, damage(forged, null), compression.name());
            ByteBuffer garbage = copy(section);
            for (int i = HEADER_LENGTH; i < HEADER_LENGTH + garbage.getInt(STORED_LENGTH_OFFSET); i++) {
                garbage.put(i, (byte) 0xff);
            }
            refreshChecksums(garbage, SALT, FILE_OFFSET);
            assertEquals(SectionDamage.BAD_COMPRESSED_DATA, damage(garbage, null), compression.name());
        }
    }

    private ByteBuffer encode(Compression compression, Encryption encryption, ByteBuffer plain) {
        KeyProvider provider = encryption == Encryption.NONE ? null : keys;
        try (SectionEncoder encoder = new SectionEncoder(compression, 3, encryption, provider, 1 << 16)) {
            encoder.startSegment(SEGMENT_ID, SALT);
            ByteBuffer out = ByteBuffer.allocateDirect(encoder.maxSectionLength(plain.remaining())).order(ByteOrder.LITTLE_ENDIAN);
            int length = encoder.encode(plain, START, FILE_OFFSET, out);
            return copy(out.flip().limit(length));
        }
    }

    private static SectionDamage damage(ByteBuffer section, KeyProvider provider) {
        return damage(section, provider, SEGMENT_ID, SALT, FILE_OFFSET, START);
    }

    /** The kind of damage decoding finds, or null when the section decodes. */
    private static SectionDamage damage(ByteBuffer section, KeyProvider provider, long segmentId, int salt, long fileOffset, long start) {
        try (SectionDecoder decoder = new SectionDecoder(provider).forSegment(segmentId, salt)) {
            ByteBuffer plainOut = ByteBuffer.allocateDirect(1 << 16);
            decoder.decode(section, 0, fileOffset, start, plainOut);
            return null;
        } catch (DamagedSectionException e) {
            assertEquals(0, e.fileOffset() - fileOffset);
            return e.damage();
        }
    }

    /** What someone editing a section on purpose would do: recompute both CRCs so only the tag stands in the way. */
    private static void refreshChecksums(ByteBuffer section, int salt, long fileOffset) {
        SectionChecks checks = new SectionChecks();
        int stored = section.getInt(STORED_LENGTH_OFFSET);
        if (stored >= 0 && HEADER_LENGTH + (long) stored <= section.limit()) {
            section.putInt(BODY_CRC_OFFSET, checks.bodyCrc(section, HEADER_LENGTH, stored));
        }
        byte[] header = new byte[HEADER_LENGTH];
        section.get(0, header);
        section.putInt(HEADER_CRC_OFFSET, checks.headerCrc(salt, fileOffset, header));
    }

    private static ByteBuffer json(int length) {
        return Payloads.json(new Random(length), length);
    }

    private static ByteBuffer copy(ByteBuffer section) {
        ByteBuffer copy = ByteBuffer.allocateDirect(section.limit()).order(ByteOrder.LITTLE_ENDIAN);
        copy.put(0, section, 0, section.limit());
        return copy;
    }
}
