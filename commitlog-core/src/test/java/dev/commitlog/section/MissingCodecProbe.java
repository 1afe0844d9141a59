package dev.commitlog.section;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import java.nio.file.Path;

/**
 * Run by {@link CodecLibraryTest} in a class loader that lacks a compression jar: makes the
 * compressor the way the flusher will, and says what happened, as one line. Names no library type.
 */
public final class MissingCodecProbe {
    private MissingCodecProbe() {
    }

    /** Opens a log compressing with {@code codec} in {@code directory}, as an embedder would; says what happened. */
    public static String open(String codec, String directory) {
        CommitLogConfig config = CommitLogConfig.builder(Path.of(directory)).compression(Compression.valueOf(codec)).build();
        try (CommitLog log = CommitLog.open(config, CommitLogOptions.builder().noJmx().build())) {
            return "opened " + log.config().compression();
        } catch (Throwable e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    public static String run(String codec) {
        try (BlockCompressor compressor = BlockCompressors.create(Compression.valueOf(codec), 3)) {
            return "made codec " + compressor.codecId();
        } catch (Throwable e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }
}
