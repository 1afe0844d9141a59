package dev.commitlog.section;

import static org.junit.jupiter.api.Assertions.*;

import com.sun.management.ThreadMXBean;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * In steady state an encode and a decode allocate nothing on the heap without encryption, and with
 * it only what the JDK's cipher re-initialisation allocates per section (about 1 KB each way on JDK
 * 17 and 25), whatever the section's size. Measured as {@code CodecAllocationTest} does, with the
 * thread's allocated-bytes counter, over sections of 64 KiB.
 */
class SectionAllocationTest {
    private static final int WARM_UP = 2_000;
    private static final int MEASURED = 2_000;
    private static final int PLAIN = 64 << 10;
    /** Tolerated noise over all measured sections; one 16-byte object per section would be 32 KB. */
    private static final long NOISE = 16 * 1024;
    /**
     * What the JDK's AES-GCM may allocate per encode and decode pair (about 2.3 KB measured: init and
     * parameter spec, both ways); direct buffers given to the cipher took 6.5 KB per pair at this size.
     */
    private static final long GCM_PER_SECTION = 4096;
    /**
     * zstd-jni's own calls, on JDK 25 only: 128 B per compress or decompress once the JIT settles,
     * more before (measured with zstd-jni 1.5.7-28 alone; 0 on JDK 17). Per section, not per byte.
     */
    private static final long ZSTD_PER_SECTION = Runtime.version().feature() >= 25 ? 1024 : 0;

    static Stream<Arguments> modes() {
        return Stream.of(Compression.values()).flatMap(c -> Stream.of(Encryption.values()).map(e -> Arguments.of(c, e)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modes")
    void encodeAndDecodeAllocateNothingPerSection(Compression compression, Encryption encryption) throws Exception {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long threadId = Thread.currentThread().getId();
        TestKeys keys = encryption == Encryption.NONE ? null : new TestKeys(5, 1);
        ByteBuffer plain = Payloads.json(new Random(11), PLAIN);
        try (SectionEncoder encoder = new SectionEncoder(compression, 3, encryption, keys, PLAIN);
             SectionDecoder decoder = new SectionDecoder(keys)) {
            encoder.startSegment(1, 1);
            decoder.forSegment(1, 1);
            ByteBuffer out = ByteBuffer.allocateDirect(encoder.maxSectionLength(PLAIN));
            ByteBuffer plainOut = ByteBuffer.allocateDirect(PLAIN);
            long checksum = 0;
            for (int i = 0; i < WARM_UP; i++) {
                checksum += roundTrip(encoder, decoder, plain, out, plainOut, i);
            }
            long before = threads.getThreadAllocatedBytes(threadId);
            for (int i = WARM_UP; i < WARM_UP + MEASURED; i++) {
                checksum += roundTrip(encoder, decoder, plain, out, plainOut, i);
            }
            long allocated = threads.getThreadAllocatedBytes(threadId) - before;
            long allowed = NOISE + (encryption == Encryption.NONE ? 0 : GCM_PER_SECTION * MEASURED)
                    + (compression == Compression.ZSTD ? ZSTD_PER_SECTION * MEASURED : 0);
            System.out.printf("%s %s: %d bytes allocated over %d encode+decode pairs (%.1f per pair)%n", compression, encryption,
                    allocated, MEASURED, (double) allocated / MEASURED);
            assertTrue(allocated < allowed, compression + " " + encryption + ": " + allocated + " bytes over " + MEASURED
                    + " sections, at most " + allowed);
            assertNotEquals(0, checksum);
        }
    }

    private static long roundTrip(SectionEncoder encoder, SectionDecoder decoder, ByteBuffer plain, ByteBuffer out, ByteBuffer plainOut,
                                  int i) throws DamagedSectionException {
        long start = 64L + (long) i * PLAIN;
        out.clear();
        int length = encoder.encode(plain, start, 64L + i * 8L, out);
        out.flip();
        plainOut.clear();
        decoder.decode(out, 0, 64L + i * 8L, start, plainOut);
        return length + plainOut.get(i % PLAIN);
    }
}
