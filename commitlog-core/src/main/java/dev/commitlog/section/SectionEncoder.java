package dev.commitlog.section;

import static dev.commitlog.section.SectionDescriptor.*;

import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.crypto.KeyProvider;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import javax.crypto.SecretKey;

/**
 * Turns one flushed range of plain frames into a section (compressed, then encrypted, behind its
 * header; {@link SectionDescriptor}) in a buffer the caller reuses.
 *
 * <p>Assumptions and guarantees: one encoder per flushing thread, never shared. The caller starts each
 * segment ({@link #startSegment}) before encoding its first section there, and gives each section
 * the log position of its first plain byte and the file offset it will be written at (8-byte
 * aligned). The encoder draws a fresh nonce prefix per segment start, so two encoders may write
 * sections of the same segment. In steady state an encode allocates nothing, except, when
 * encrypting, what the JDK's cipher initialisation allocates per section (about 1 KB, whatever the
 * section's size; {@link SectionCipher}); its scratch
 * buffer grows to the largest section seen and stays.
 */
public final class SectionEncoder implements AutoCloseable {
    private final BlockCompressor compressor;
    private final SectionCipher cipher;
    private final KeyProvider keys;
    private final int maxPlainLength;
    private final SectionChecks checks = new SectionChecks();
    private final NonceSequence nonces = new NonceSequence();
    private final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private ByteBuffer scratch = ByteBuffer.allocateDirect(0);
    private boolean started;
    private long segmentId;
    private int salt;

    /**
     * @param compression    the codec; its library must be on the class path
     * @param level          the zstd level (ignored otherwise)
     * @param encryption     {@link Encryption#AES_GCM} needs {@code keys}
     * @param keys           the key provider, or null without encryption
     * @param maxPlainLength the longest range one section may hold (the segment size at most)
     * @throws IllegalArgumentException if encryption is asked for without keys, or keys are given without it
     * @throws IllegalStateException    naming the Maven coordinates of a codec whose library is missing
     */
    public SectionEncoder(Compression compression, int level, Encryption encryption, KeyProvider keys, int maxPlainLength) {
        Objects.requireNonNull(compression, "compression");
        Objects.requireNonNull(encryption, "encryption");
        if ((encryption == Encryption.AES_GCM) != (keys != null)) {
            throw new IllegalArgumentException(keys == null ? "encryption " + encryption + " needs a KeyProvider"
                    : "a KeyProvider was given but encryption is " + encryption);
        }
        if (maxPlainLength < 0 || maxPlainLength > Integer.MAX_VALUE - HEADER_LENGTH - 2 * TAG_LENGTH - (1 << 20)) {
            throw new IllegalArgumentException("maxPlainLength " + maxPlainLength + " is out of range; expected 0 to 1 GiB");
        }
        this.compressor = BlockCompressors.create(compression, level);
        this.keys = keys;
        this.cipher = keys == null ? null : new SectionCipher(keys);
        this.maxPlainLength = maxPlainLength;
    }

    /** The room a section of {@code plainLength} bytes may need in the output buffer, header and padding included. */
    public int maxSectionLength(int plainLength) {
        int body = Math.max(plainLength, compressor == null ? 0 : compressor.maxCompressedLength(plainLength));
        return (int) SectionDescriptor.sectionLength(body + (cipher == null ? 0 : TAG_LENGTH));
    }

    /** Starts a segment (or a new writer of one): its id and salt go into every section's checks; a new nonce prefix is drawn. */
    public SectionEncoder startSegment(long segmentId, int salt) {
        this.segmentId = segmentId;
        this.salt = salt;
        this.started = true;
        if (cipher != null) {
            nonces.restart();
        }
        return this;
    }

    /**
     * Encodes {@code plain} (position to limit; left as it was) as one section written into
     * {@code out} at its position, which is advanced past the section and its padding.
     *
     * @param logicalStart the log position of {@code plain}'s first byte
     * @param fileOffset   where in the segment file the section will be written; 8-byte aligned
     * @return the section's length in the file, header and padding included
     * @throws IllegalArgumentException if a buffer is not direct, {@code plain} is longer than the
     *                                  maximum, {@code out} has less room than {@link #maxSectionLength}, or an offset is invalid
     * @throws IllegalStateException    if no segment was started, or the key provider has no current key
     */
    public int encode(ByteBuffer plain, long logicalStart, long fileOffset, ByteBuffer out) {
        check(plain, logicalStart, fileOffset, out);
        int plainAt = plain.position();
        int plainLength = plain.remaining();
        int headerAt = out.position();
        int bodyAt = headerAt + HEADER_LENGTH;

        int codec = CODEC_NONE;
        ByteBuffer body = plain;
        int bodyFrom = plainAt;
        int bodyLength = plainLength;
        if (compressor != null && plainLength > 0) {
            int bound = compressor.maxCompressedLength(plainLength);
            ByteBuffer target = cipher != null ? scratch(bound) : out; // encrypted: compressed text is only an intermediate
            int targetAt = cipher != null ? 0 : bodyAt;
            int compressed = compressor.compress(plain, plainAt, plainLength, target, targetAt, bound);
            if (compressed < plainLength) { // otherwise stored as it is: never longer than the plain range
                codec = compressor.codecId();
                body = target;
                bodyFrom = targetAt;
                bodyLength = compressed;
            }
        }
        int stored = bodyLength + (cipher != null ? TAG_LENGTH : 0);
        header.putInt(MAGIC_OFFSET, MAGIC).put(CODEC_OFFSET, (byte) codec)
                .put(CIPHER_OFFSET, (byte) (cipher != null ? CIPHER_AES_256_GCM : CIPHER_NONE)).putShort(RESERVED_OFFSET, (short) 0)
                .putLong(LOGICAL_START_OFFSET, logicalStart).putInt(LOGICAL_LENGTH_OFFSET, plainLength)
                .putInt(STORED_LENGTH_OFFSET, stored);
        if (cipher != null) {
            encrypt(body, bodyFrom, bodyLength, out, bodyAt);
        } else {
            header.putInt(KEY_ID_OFFSET, 0).putLong(NONCE_OFFSET, 0).putInt(NONCE_OFFSET + Long.BYTES, 0);
            if (body == plain) {
                out.put(bodyAt, plain, plainAt, plainLength);
            } // else compressed straight into place
        }
        int padded = (int) align(stored);
        for (int i = stored; i < padded; i++) {
            out.put(bodyAt + i, (byte) 0);
        }
        header.putInt(BODY_CRC_OFFSET, checks.bodyCrc(out, bodyAt, stored));
        header.putInt(HEADER_CRC_OFFSET, checks.headerCrc(salt, fileOffset, header.array()));
        out.put(headerAt, header.array());
        out.position(bodyAt + padded);
        return HEADER_LENGTH + padded;
    }

    private void encrypt(ByteBuffer body, int bodyFrom, int bodyLength, ByteBuffer out, int bodyAt) {
        int keyId = keys.currentKeyId();
        SecretKey key = keyId > 0 ? cipher.key(keyId) : null;
        if (key == null) {
            throw new IllegalStateException("the KeyProvider's current key id " + keyId + " names no key; expected an id of 1 or more that it has");
        }
        byte[] nonce = nonces.next();
        header.putInt(KEY_ID_OFFSET, keyId).put(NONCE_OFFSET, nonce);
        byte[] aad = checks.aad(segmentId, salt, header.array());
        cipher.encrypt(key, nonce, aad, SectionChecks.AAD_LENGTH, body, bodyFrom, bodyLength, out, bodyAt);
    }

    private void check(ByteBuffer plain, long logicalStart, long fileOffset, ByteBuffer out) {
        if (!started) {
            throw new IllegalStateException("no segment started: call startSegment(segmentId, salt) first");
        }
        if (!plain.isDirect() || !out.isDirect()) {
            throw new IllegalArgumentException("plain and out must be direct buffers (writer memory, a flush buffer); got "
                    + (plain.isDirect() ? "" : "a heap plain ") + (out.isDirect() ? "" : "a heap out"));
        }
        if (plain.remaining() > maxPlainLength) {
            throw new IllegalArgumentException("plain range of " + plain.remaining() + " bytes; at most " + maxPlainLength + " per section");
        }
        if (logicalStart < 0) {
            throw new IllegalArgumentException("logicalStart " + logicalStart + " is negative; expected a log position");
        }
        if (fileOffset < 0 || fileOffset % ALIGNMENT != 0) {
            throw new IllegalArgumentException("fileOffset " + fileOffset + " is not a non-negative multiple of " + ALIGNMENT);
        }
        int need = maxSectionLength(plain.remaining());
        if (out.remaining() < need) {
            throw new IllegalArgumentException("out has " + out.remaining() + " bytes of room; a section of " + plain.remaining()
                    + " plain bytes may need " + need);
        }
    }

    private ByteBuffer scratch(int length) {
        if (scratch.capacity() < length) {
            scratch = ByteBuffer.allocateDirect(Math.max(length, Math.min(2 * scratch.capacity(), Integer.MAX_VALUE / 2)));
        }
        return scratch;
    }

    @Override
    public void close() {
        if (compressor != null) {
            compressor.close();
        }
    }
}
