package dev.commitlog.section;

import dev.commitlog.config.Compression;

/** Makes the {@link BlockCompressor} for a codec, after checking its optional library is there. */
public final class BlockCompressors {
    private BlockCompressors() {
    }

    /**
     * @param level the zstd level (ignored for LZ4)
     * @return a new compressor, or null for {@link Compression#NONE}
     * @throws IllegalStateException naming the library's Maven coordinates when its jar is missing
     */
    public static BlockCompressor create(Compression compression, int level) {
        return switch (compression) {
            case NONE -> null;
            case LZ4 -> {
                CodecLibrary.LZ4.require();
                yield new Lz4BlockCompressor();
            }
            case ZSTD -> {
                CodecLibrary.ZSTD.require();
                yield new ZstdBlockCompressor(level);
            }
        };
    }

    /** The compressor for a codec id read from a section header, for decoding; null for none or an unknown id. */
    static BlockCompressor forCodecId(int codecId) {
        Compression compression = compressionOf(codecId);
        return compression == Compression.NONE ? null : create(compression, ZSTD_DEFAULT_LEVEL); // the level only matters when compressing
    }

    /** The setting a codec id read from a section header stands for (an unknown id reads as none: such a section never verified). */
    static Compression compressionOf(int codecId) {
        return switch (codecId) {
            case SectionDescriptor.CODEC_LZ4 -> Compression.LZ4;
            case SectionDescriptor.CODEC_ZSTD -> Compression.ZSTD;
            default -> Compression.NONE;
        };
    }

    /** zstd's own default level. */
    public static final int ZSTD_DEFAULT_LEVEL = 3;
}
