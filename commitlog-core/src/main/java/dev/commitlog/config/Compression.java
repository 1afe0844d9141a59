package dev.commitlog.config;

/**
 * How flushed sections are compressed ({@code commitlog_compression}). YAML names:
 * {@code none | lz4 | zstd}. Each codec's library is an optional dependency the user adds
 * ({@code at.yawk.lz4:lz4-java}, {@code com.github.luben:zstd-jni}). Parsed and checked, but not
 * yet acted on: {@code CommitLog.open} refuses a setting other than {@code none}.
 */
public enum Compression {
    /** Segments hold plain frames (the format every build reads). */
    NONE,
    /** LZ4's fast block format; takes no {@code commitlog_compression_level}. */
    LZ4,
    /** Zstandard; {@code commitlog_compression_level} 1 to 22, default 3. */
    ZSTD
}
