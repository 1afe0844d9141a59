package dev.commitlog;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.ConfigException;
import dev.commitlog.config.Encryption;
import dev.commitlog.crypto.KeyProvider;
import java.util.Locale;

/**
 * What {@code CommitLog.open} does with {@code commitlog_compression} and {@code commitlog_encryption}
 * while the engine writes plain segments only: it refuses them, so nobody runs a log they believe
 * compressed or encrypted when it is not. The section transform exists ({@code dev.commitlog.section})
 * but the flusher and the readers do not use it yet.
 */
final class SectionSettings {
    private SectionSettings() {
    }

    /** @throws ConfigException naming the key and value, before any file is touched */
    static void refuseUntilWritten(CommitLogConfig config, KeyProvider keys) {
        if (keys != null && config.encryption() == Encryption.NONE) {
            throw new ConfigException("commitlog_encryption", "none", "commitlog_encryption: 'none', but CommitLogOptions has a "
                    + "KeyProvider: the log would not be encrypted; give no KeyProvider, or set commitlog_encryption");
        }
        if (config.compression() != Compression.NONE) {
            throw notYet("commitlog_compression", config.compression().name().toLowerCase(Locale.ROOT));
        }
        if (config.encryption() != Encryption.NONE) {
            throw notYet("commitlog_encryption", "aes-gcm"); // its one value besides none
        }
    }

    private static ConfigException notYet(String key, String value) {
        return new ConfigException(key, value, key + ": '" + value + "' is not supported yet: this build reads the setting but "
                + "writes plain segments only (docs/format.md, \"Sections\", is the draft of what it will write); set " + key
                + ": none, or remove it");
    }
}
