package dev.commitlog.section;

import static dev.commitlog.section.SectionDescriptor.*;

import dev.commitlog.crypto.KeyProvider;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import javax.crypto.SecretKey;

/**
 * Reads one section back into the plain frames it was made from, or says why it cannot
 * ({@link DamagedSectionException}): a reader never gets bytes from a section that did not verify.
 * The order of checks is the order of trust: the header's CRC (an earlier life's or a misplaced
 * section fails it, whatever its key), its fields, the body's CRC (a torn body, found without a
 * key), then the GCM tag (tampering, a wrong key, a section moved to another segment or position),
 * then decompression to exactly the logical length.
 *
 * <p>Assumptions and guarantees: one decoder per reading thread. The caller points it at a segment
 * ({@link #forSegment}) and gives each section's file offset and the log position it expects the
 * section to start at (the previous section's end). Compressors are made on the first section of
 * their codec, the scratch buffer grows to the largest section seen; after that a decode allocates
 * nothing, except what the JDK's cipher initialisation allocates per encrypted section (about 1 KB,
 * whatever its size; {@link SectionCipher}).
 */
public final class SectionDecoder implements AutoCloseable {
    private final KeyProvider keys;
    private final SectionCipher cipher;
    private final SectionChecks checks = new SectionChecks();
    private final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final byte[] nonce = new byte[NONCE_LENGTH];
    private BlockCompressor lz4;
    private BlockCompressor zstd;
    private ByteBuffer scratch = ByteBuffer.allocateDirect(0);
    private long segmentId;
    private int salt;
    private long logicalStart;
    private int logicalLength;

    /** @param keys the key provider, or null for a log that was never encrypted (an encrypted section is then {@link SectionDamage#UNKNOWN_KEY}) */
    public SectionDecoder(KeyProvider keys) {
        this.keys = keys;
        this.cipher = keys == null ? null : new SectionCipher(keys);
    }

    /** Decodes sections of this segment (its id and salt are under every section's checks) from now on. */
    public SectionDecoder forSegment(long segmentId, int salt) {
        this.segmentId = segmentId;
        this.salt = salt;
        return this;
    }

    /** The log position of the last decoded section's first plain byte. */
    public long logicalStart() {
        return logicalStart;
    }

    /** The plain bytes the last decoded section held. */
    public int logicalLength() {
        return logicalLength;
    }

    /**
     * Decodes the section at {@code source[at]} (bytes up to {@code source.limit()} are the file's)
     * into {@code plainOut} at its position, which is advanced by the plain length. On damage nothing
     * is advanced and the bytes written into {@code plainOut} past its position are zeroed.
     *
     * @param fileOffset            the section's offset in its segment file
     * @param expectedLogicalStart  the log position the section must start at
     * @return the section's length in the file, header and padding included
     * @throws DamagedSectionException if the section does not verify, of the kind that says why
     */
    public int decode(ByteBuffer source, int at, long fileOffset, long expectedLogicalStart, ByteBuffer plainOut)
            throws DamagedSectionException {
        if (!source.isDirect() || !plainOut.isDirect()) {
            throw new IllegalArgumentException("source and plainOut must be direct buffers (a mapping, a read buffer)");
        }
        int available = source.limit() - at;
        if (available >= Integer.BYTES && source.getInt(at) == 0) {
            throw damage(SectionDamage.UNWRITTEN, fileOffset, "a zero word: nothing was written here");
        }
        if (available < HEADER_LENGTH) {
            throw damage(SectionDamage.TRUNCATED, fileOffset, available + " bytes left, fewer than a " + HEADER_LENGTH + "-byte section header");
        }
        source.get(at, header.array(), 0, HEADER_LENGTH);
        int magic = header.getInt(MAGIC_OFFSET);
        if (magic != MAGIC) {
            throw damage(SectionDamage.BAD_HEADER, fileOffset, "magic 0x" + Integer.toHexString(magic) + " is not a section's");
        }
        int headerCrc = checks.headerCrc(salt, fileOffset, header.array());
        if (header.getInt(HEADER_CRC_OFFSET) != headerCrc) {
            // The salt and offset are under it: an earlier life's section, or one written elsewhere, fails here too
            throw damage(SectionDamage.BAD_HEADER, fileOffset, "header CRC mismatch");
        }
        int codec = header.get(CODEC_OFFSET);
        int cipherId = header.get(CIPHER_OFFSET);
        long start = header.getLong(LOGICAL_START_OFFSET);
        int length = header.getInt(LOGICAL_LENGTH_OFFSET);
        int stored = header.getInt(STORED_LENGTH_OFFSET);
        int keyId = header.getInt(KEY_ID_OFFSET);
        checkFields(fileOffset, codec, cipherId, length, stored, keyId, plainOut.remaining());
        if (start != expectedLogicalStart) {
            throw damage(SectionDamage.MISPLACED, fileOffset, "holds log positions from " + start + ", where the log expects "
                    + expectedLogicalStart);
        }
        long sectionLength = sectionLength(stored);
        if (available < sectionLength) {
            throw damage(SectionDamage.TRUNCATED, fileOffset, available + " bytes left of a " + sectionLength + "-byte section");
        }
        int bodyAt = at + HEADER_LENGTH;
        if (header.getInt(BODY_CRC_OFFSET) != checks.bodyCrc(source, bodyAt, stored) || !zeroPadding(source, bodyAt + stored, (int) (sectionLength - HEADER_LENGTH - stored))) {
            throw damage(SectionDamage.BAD_BODY, fileOffset, "body CRC mismatch or non-zero padding");
        }
        int outAt = plainOut.position();
        try {
            decodeBody(source, bodyAt, stored, codec, cipherId, keyId, length, fileOffset, plainOut, outAt);
        } catch (DamagedSectionException e) {
            for (int i = outAt; i < Math.min(plainOut.limit(), outAt + length); i++) {
                plainOut.put(i, (byte) 0); // no plaintext of a section that did not verify stays behind
            }
            throw e;
        }
        plainOut.position(outAt + length);
        this.logicalStart = start;
        this.logicalLength = length;
        return (int) sectionLength;
    }

    private void decodeBody(ByteBuffer source, int bodyAt, int stored, int codec, int cipherId, int keyId, int length, long fileOffset,
                            ByteBuffer plainOut, int outAt) throws DamagedSectionException {
        ByteBuffer compressed = source;
        int compressedAt = bodyAt;
        int compressedLength = stored;
        if (cipherId == CIPHER_AES_256_GCM) {
            SecretKey key = cipher == null ? null : cipher.key(keyId);
            if (key == null) {
                throw damage(SectionDamage.UNKNOWN_KEY, fileOffset, "encrypted under key id " + keyId + ", which the KeyProvider "
                        + (keys == null ? "(none was given)" : "does not have"));
            }
            compressedLength = stored - TAG_LENGTH;
            ByteBuffer target = codec == CODEC_NONE ? plainOut : scratch(compressedLength);
            int targetAt = codec == CODEC_NONE ? outAt : 0;
            if (!decrypt(key, source, bodyAt, stored, target, targetAt)) {
                throw damage(SectionDamage.NOT_AUTHENTIC, fileOffset, "GCM tag mismatch: altered, moved, or not under key " + keyId
                        + " as the KeyProvider has it");
            }
            compressed = target;
            compressedAt = targetAt;
        }
        if (codec == CODEC_NONE) {
            if (cipherId == CIPHER_NONE) {
                plainOut.put(outAt, source, bodyAt, length);
            } // else decrypted straight into place
            return;
        }
        int n = compressor(codec).decompress(compressed, compressedAt, compressedLength, plainOut, outAt, length);
        if (n != length) {
            throw damage(SectionDamage.BAD_COMPRESSED_DATA, fileOffset, n < 0 ? "the body is not a valid block of its codec"
                    : "decompressed to " + n + " bytes, not the " + length + " its header names");
        }
    }

    private boolean decrypt(SecretKey key, ByteBuffer source, int bodyAt, int stored, ByteBuffer target, int targetAt) {
        System.arraycopy(header.array(), NONCE_OFFSET, nonce, 0, NONCE_LENGTH);
        byte[] aad = checks.aad(segmentId, salt, header.array());
        return cipher.decrypt(key, nonce, aad, SectionChecks.AAD_LENGTH, source, bodyAt, stored, target, targetAt);
    }

    private void checkFields(long fileOffset, int codec, int cipherId, int length, int stored, int keyId, int room)
            throws DamagedSectionException {
        if (header.getShort(RESERVED_OFFSET) != 0 || codec < CODEC_NONE || codec > CODEC_ZSTD || cipherId < CIPHER_NONE
                || cipherId > CIPHER_AES_256_GCM) {
            throw damage(SectionDamage.BAD_HEADER, fileOffset, "codec " + codec + ", cipher " + cipherId + " or reserved bits unknown");
        }
        if (length < 0 || length > room) {
            throw damage(SectionDamage.BAD_HEADER, fileOffset, "logical length " + length + " out of range; the segment has room for " + room);
        }
        int tag = cipherId == CIPHER_AES_256_GCM ? TAG_LENGTH : 0;
        boolean storedFits = codec == CODEC_NONE ? stored == length + tag : stored >= tag && stored < length + tag;
        if (!storedFits) {
            throw damage(SectionDamage.BAD_HEADER, fileOffset, "stored length " + stored + " does not fit logical length " + length
                    + " with codec " + codec + " and cipher " + cipherId);
        }
        boolean noCipherFields = keyId == 0 && header.getLong(NONCE_OFFSET) == 0 && header.getInt(NONCE_OFFSET + Long.BYTES) == 0;
        if (cipherId == CIPHER_NONE ? !noCipherFields : keyId <= 0) {
            throw damage(SectionDamage.BAD_HEADER, fileOffset, "key id " + keyId + " does not fit cipher " + cipherId);
        }
    }

    private static boolean zeroPadding(ByteBuffer source, int from, int length) {
        for (int i = 0; i < length; i++) {
            if (source.get(from + i) != 0) {
                return false;
            }
        }
        return true;
    }

    private BlockCompressor compressor(int codec) {
        if (codec == CODEC_LZ4) {
            if (lz4 == null) {
                lz4 = BlockCompressors.forCodecId(codec);
            }
            return lz4;
        }
        if (zstd == null) {
            zstd = BlockCompressors.forCodecId(codec);
        }
        return zstd;
    }

    private ByteBuffer scratch(int length) {
        if (scratch.capacity() < length) {
            scratch = ByteBuffer.allocateDirect(Math.max(length, Math.min(2 * scratch.capacity(), Integer.MAX_VALUE / 2)));
        }
        return scratch;
    }

    private static DamagedSectionException damage(SectionDamage kind, long fileOffset, String reason) {
        return new DamagedSectionException(kind, fileOffset, reason);
    }

    @Override
    public void close() {
        if (lz4 != null) {
            lz4.close();
        }
        if (zstd != null) {
            zstd.close();
        }
    }
}
