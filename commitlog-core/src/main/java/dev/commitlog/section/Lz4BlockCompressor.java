package dev.commitlog.section;

import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * LZ4 blocks through lz4-java: its fastest implementation (JNI where the platform has it), the fast
 * compressor, and the safe decompressor, which checks every offset against the input and output
 * bounds, so a forged block that passed the CRC cannot read or write outside them.
 * Loaded only after {@link CodecLibrary#LZ4} found the library.
 */
final class Lz4BlockCompressor implements BlockCompressor {
    private final LZ4Compressor compressor;
    private final LZ4SafeDecompressor decompressor;

    Lz4BlockCompressor() {
        LZ4Factory factory = LZ4Factory.fastestInstance();
        this.compressor = factory.fastCompressor();
        this.decompressor = factory.safeDecompressor();
    }

    @Override
    public int codecId() {
        return SectionDescriptor.CODEC_LZ4;
    }

    @Override
    public int maxCompressedLength(int plainLength) {
        return compressor.maxCompressedLength(plainLength);
    }

    @Override
    public int compress(ByteBuffer src, int srcOffset, int length, ByteBuffer dst, int dstOffset, int dstRoom) {
        return compressor.compress(src, srcOffset, length, dst, dstOffset, dstRoom);
    }

    @Override
    public int decompress(ByteBuffer src, int srcOffset, int length, ByteBuffer dst, int dstOffset, int dstRoom) {
        try {
            return decompressor.decompress(src, srcOffset, length, dst, dstOffset, dstRoom);
        } catch (LZ4Exception e) {
            return -1; // a malformed block, or one that decompresses to more than the room
        }
    }

    @Override
    public void close() {
        // lz4-java's compressors hold no native state
    }
}
