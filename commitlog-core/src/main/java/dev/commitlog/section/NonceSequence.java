package dev.commitlog.section;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;

/**
 * The 12-byte AES-GCM nonces one encoder uses in one segment: a 64-bit prefix drawn from
 * {@link SecureRandom} when the encoder starts the segment, then a 32-bit counter that goes up by one
 * per section (little-endian). A nonce is never used twice with one key as long as no two
 * (encoder, segment) starts draw the same prefix: after n starts under one key the odds that any two
 * did are about n^2 / 2^65 (2^-25 after a million segments, 32 TiB of 32 MiB segments); a new key
 * id starts afresh. The prefix is never derived from the segment id or salt, which repeat across
 * logs, recoveries and file reuse. Past 2^32 sections a new prefix is drawn. Confined to one thread.
 */
final class NonceSequence {
    private final SecureRandom random = new SecureRandom();
    private final ByteBuffer nonce = ByteBuffer.allocate(SectionDescriptor.NONCE_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final byte[] prefix = new byte[Long.BYTES];
    private long counter;

    /** Draws a new prefix; counting starts again at 0. */
    void restart() {
        random.nextBytes(prefix);
        nonce.put(0, prefix);
        counter = 0;
    }

    /** The next nonce, in an array this sequence reuses (valid until the next call). */
    byte[] next() {
        if (counter > 0xFFFF_FFFFL) {
            restart(); // 2^32 sections under one prefix: the counter would repeat
        }
        nonce.putInt(Long.BYTES, (int) counter++);
        return nonce.array();
    }
}
