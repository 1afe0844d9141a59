package dev.commitlog.section;

import dev.commitlog.config.Compression;

/**
 * Run by {@link CodecLibraryTest} in a class loader that lacks a compression jar: makes the
 * compressor the way the flusher will, and says what happened, as one line. Names no library type.
 */
public final class MissingCodecProbe {
    private MissingCodecProbe() {
    }

    public static String run(String codec) {
        try (BlockCompressor compressor = BlockCompressors.create(Compression.valueOf(codec), 3)) {
            return "made codec " + compressor.codecId();
        } catch (Throwable e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }
}
