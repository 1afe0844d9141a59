package dev.commitlog.section;

import java.nio.ByteBuffer;

/**
 * One compression library's block format, behind the calls a section needs: compress a range of a
 * direct buffer into another, and back. Confined to one thread (it holds native contexts); reused for
 * every section, so it allocates nothing per call. Offsets are absolute; positions and limits are
 * left alone.
 */
public interface BlockCompressor extends AutoCloseable {
    /** The codec id sections store ({@link SectionDescriptor#CODEC_LZ4}, ...). */
    int codecId();

    /** The most bytes {@link #compress} may write for {@code plainLength} bytes. */
    int maxCompressedLength(int plainLength);

    /** Compresses {@code src[srcOffset, srcOffset + length)} into {@code dst} at {@code dstOffset}; returns the bytes written. */
    int compress(ByteBuffer src, int srcOffset, int length, ByteBuffer dst, int dstOffset, int dstRoom);

    /**
     * Decompresses {@code src[srcOffset, srcOffset + length)} into {@code dst} at {@code dstOffset};
     * returns the bytes written, or -1 when the input is not a valid block or needs more than
     * {@code dstRoom} bytes.
     */
    int decompress(ByteBuffer src, int srcOffset, int length, ByteBuffer dst, int dstOffset, int dstRoom);

    /** Frees native state; the compressor is unusable afterwards. */
    @Override
    void close();
}
