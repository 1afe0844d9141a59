package dev.commitlog.section;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;

/**
 * Zstandard frames through zstd-jni, with one compression and one decompression context kept for
 * every section (a context per call would allocate native state each time). Both buffers must be
 * direct. Loaded only after {@link CodecLibrary#ZSTD} found the library.
 */
final class ZstdBlockCompressor implements BlockCompressor {
    private final ZstdCompressCtx compressor;
    private final ZstdDecompressCtx decompressor;

    ZstdBlockCompressor(int level) {
        this.compressor = new ZstdCompressCtx().setLevel(level).setChecksum(false).setContentSize(true);
        this.decompressor = new ZstdDecompressCtx();
    }

    @Override
    public int codecId() {
        return SectionDescriptor.CODEC_ZSTD;
    }

    @Override
    public int maxCompressedLength(int plainLength) {
        return Math.toIntExact(Zstd.compressBound(plainLength));
    }

    @Override
    public int compress(ByteBuffer src, int srcOffset, int length, ByteBuffer dst, int dstOffset, int dstRoom) {
        return compressor.compressDirectByteBuffer(dst, dstOffset, dstRoom, src, srcOffset, length);
    }

    @Override
    public int decompress(ByteBuffer src, int srcOffset, int length, ByteBuffer dst, int dstOffset, int dstRoom) {
        try {
            return decompressor.decompressDirectByteBuffer(dst, dstOffset, dstRoom, src, srcOffset, length);
        } catch (ZstdException e) {
            return -1; // a malformed frame, or one whose content is larger than the room
        }
    }

    @Override
    public void close() {
        compressor.close();
        decompressor.close();
    }
}
