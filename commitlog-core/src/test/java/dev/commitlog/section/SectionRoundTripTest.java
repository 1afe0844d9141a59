package dev.commitlog.section;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every codec with and without encryption gives back exactly the plain range it was given, for
 * random and JSON-like ranges of 0 B to 1 MiB; compressible ranges get shorter, incompressible ones
 * are stored as they are (never longer than plain plus the tag), and an encrypted section holds no
 * run of its plain text.
 */
class SectionRoundTripTest {
    private static final int MAX = 1 << 20;
    private static final int[] SIZES = {0, 1, 7, 8, 9, 63, 100, 1000, 4096, 4097, 65_536, 100_003, 524_288, MAX};
    private static final long SEGMENT_ID = 42;
    private static final int SALT = 0x5eed;

    static Stream<Arguments> modes() {
        return Stream.of(Compression.values()).flatMap(c -> Stream.of(Encryption.values()).map(e -> Arguments.of(c, e)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modes")
    void everySizeOfEachPayloadComesBack(Compression compression, Encryption encryption) throws Exception {
        TestKeys keys = new TestKeys(7, 2);
        Random random = new Random(compression.ordinal() * 31L + encryption.ordinal());
        try (SectionEncoder encoder = new SectionEncoder(compression, 3, encryption, encryption == Encryption.NONE ? null : keys, MAX);
             SectionDecoder decoder = new SectionDecoder(encryption == Encryption.NONE ? null : keys)) {
            encoder.startSegment(SEGMENT_ID, SALT);
            decoder.forSegment(SEGMENT_ID, SALT);
            ByteBuffer out = ByteBuffer.allocateDirect(2 * encoder.maxSectionLength(MAX) + 64).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            ByteBuffer plainOut = ByteBuffer.allocateDirect(MAX + 64);
            long position = 64;
            for (boolean json : new boolean[] {false, true}) {
                for (int size : SIZES) {
                    ByteBuffer plain = json ? Payloads.json(random, size) : Payloads.random(random, size);
                    out.clear().position(8 * random.nextInt(8));
                    int at = out.position();
                    long fileOffset = 64 + 8L * random.nextInt(1000);
                    int length = encoder.encode(plain, position, fileOffset, out);
                    assertEquals(at + length, out.position(), "the position moves past the section");
                    assertEquals(0, length % SectionDescriptor.ALIGNMENT);
                    assertEquals(0, plain.position(), "plain is left as it was");
                    assertEquals(size, plain.limit());

                    int stored = out.getInt(at + SectionDescriptor.STORED_LENGTH_OFFSET);
                    int tag = encryption == Encryption.NONE ? 0 : SectionDescriptor.TAG_LENGTH;
                    assertTrue(stored <= size + tag, "stored " + stored + " for " + size);
                    int codec = out.get(at + SectionDescriptor.CODEC_OFFSET);
                    if (json && size >= 4096 && compression != Compression.NONE) {
                        assertNotEquals(SectionDescriptor.CODEC_NONE, codec, "JSON is compressed");
                        assertTrue(stored - tag < size / 2, compression + " stored " + stored + " of " + size + " JSON bytes");
                    }
                    if (!json && size >= 100) {
                        assertEquals(SectionDescriptor.CODEC_NONE, codec, "random bytes are stored as they are");
                    }
                    if (encryption != Encryption.NONE && size >= 64) {
                        assertNoRunOf(plain, out, at, length);
                    }

                    ByteBuffer file = out.duplicate().limit(at + length);
                    plainOut.clear().position(8);
                    int decoded = decoder.decode(file, at, fileOffset, position, plainOut);
                    assertEquals(length, decoded);
                    assertEquals(8 + size, plainOut.position());
                    assertEquals(position, decoder.logicalStart());
                    assertEquals(size, decoder.logicalLength());
                    assertArrayEquals(Payloads.bytes(plain, 0, size), Payloads.bytes(plainOut, 8, size),
                            compression + " " + encryption + " " + (json ? "json " : "random ") + size);
                    position += size;
                }
            }
        }
    }

    /** No 32-byte run of the plain range appears in the section. */
    private static void assertNoRunOf(ByteBuffer plain, ByteBuffer out, int at, int length) {
        byte[] section = Payloads.bytes(out, at, length);
        byte[] text = Payloads.bytes(plain, 0, plain.limit());
        for (int from = 0; from + 32 <= text.length; from += Math.max(32, text.length / 64)) {
            byte[] run = Arrays.copyOfRange(text, from, from + 32);
            assertEquals(-1, indexOf(section, run), "plain text at " + from + " found in the encrypted section");
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
