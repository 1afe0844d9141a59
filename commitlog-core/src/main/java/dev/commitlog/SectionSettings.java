package dev.commitlog;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.ConfigException;
import dev.commitlog.config.DiskAccessMode;
import dev.commitlog.config.Encryption;
import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.format.SectionBudget;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.section.BlockCompressors;
import dev.commitlog.section.SectionedStorageLayer;
import java.util.Locale;
import javax.crypto.SecretKey;

/**
 * What {@code CommitLog.open} checks of {@code commitlog_compression} and {@code commitlog_encryption}
 * before it touches the directory, and the storage layer that writes and reads sections
 * ({@link SectionedStorageLayer}, docs/format.md "Sections").
 */
final class SectionSettings {
    private SectionSettings() {
    }

    /**
     * @throws ConfigException naming the key and value: encryption without a key provider (or with
     *                         one whose current key is not a 256-bit AES key), a codec whose jar is
     *                         missing, sections with direct I/O, a max_record_size that leaves no
     *                         room for a section's overhead
     */
    static void check(CommitLogConfig config, KeyProvider keys) {
        boolean sections = config.compression() != Compression.NONE || config.encryption() != Encryption.NONE;
        if (config.encryption() == Encryption.AES_GCM) {
            requireCurrentKey(keys);
        }
        if (config.compression() != Compression.NONE) {
            try {
                var compressor = BlockCompressors.create(config.compression(), config.compressionLevel());
                compressor.close();
            } catch (IllegalStateException e) {
                throw new ConfigException("commitlog_compression", name(config.compression()), e.getMessage());
            }
        }
        if (sections && config.diskAccessMode() == DiskAccessMode.DIRECT) {
            String key = config.compression() != Compression.NONE ? "commitlog_compression" : "commitlog_encryption";
            String value = config.compression() != Compression.NONE ? name(config.compression()) : "aes-gcm";
            throw new ConfigException(key, value, key + ": '" + value + "' with commitlog_disk_access_mode: direct is not "
                    + "supported (sections are written through the page cache); set commitlog_disk_access_mode: standard, or "
                    + key + ": none");
        }
        int limit = config.segmentSize() - CommitLogConfig.SEGMENT_OVERHEAD_BYTES - SectionBudget.SEGMENT_RESERVE;
        if (sections && config.maxRecordSize() > limit) {
            throw new ConfigException("max_record_size", String.valueOf(config.maxRecordSize()), "max_record_size: "
                    + config.maxRecordSize() + " bytes leaves no room in a " + config.segmentSize() + "-byte segment for the "
                    + SectionBudget.SEGMENT_RESERVE + " bytes a compressed or encrypted segment keeps for its sections; "
                    + "expected at most " + limit);
        }
    }

    /** The layer the log runs over: {@code given}, with sections written as configured and read wherever a file holds them. */
    static StorageLayer storage(CommitLogConfig config, StorageLayer given, KeyProvider keys) {
        return new SectionedStorageLayer(given, config.compression(), config.compressionLevel(), config.encryption(), keys);
    }

    private static void requireCurrentKey(KeyProvider keys) {
        if (keys == null) {
            throw new ConfigException("commitlog_encryption", "aes-gcm", "commitlog_encryption: 'aes-gcm' needs a KeyProvider: "
                    + "give one with CommitLogOptions.builder().keyProvider(...) (KeyStoreKeyProvider reads a PKCS12 keystore)");
        }
        int id = keys.currentKeyId();
        SecretKey key = id >= 1 ? keys.key(id) : null;
        byte[] encoded = key == null ? null : key.getEncoded();
        if (key == null || !"AES".equalsIgnoreCase(key.getAlgorithm()) || encoded == null || encoded.length != 32) {
            throw new ConfigException("commitlog_encryption", "aes-gcm", "commitlog_encryption: 'aes-gcm': the KeyProvider's "
                    + "current key id " + id + (key == null ? " names no key" : " is not a 256-bit AES key") + "; expected an id "
                    + "of 1 or more naming a 32-byte AES key");
        }
    }

    private static String name(Compression compression) {
        return compression.name().toLowerCase(Locale.ROOT);
    }
}
