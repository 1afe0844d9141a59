package dev.commitlog.config;

import static dev.commitlog.config.CommitLogConfigBuilderTest.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code commitlog_compression}, {@code commitlog_compression_level} and {@code commitlog_encryption}: parsed and checked like every key. */
class CompressionEncryptionConfigTest {
    private static final String DIR = "commitlog_directory: /var/lib/commitlog\n";
    private static final Path PATH = Path.of("/var/lib/commitlog");

    @Test
    void defaultsAreNoneAndNoLevel() {
        CommitLogConfig config = CommitLogConfig.parse(DIR);
        assertEquals(Compression.NONE, config.compression());
        assertEquals(0, config.compressionLevel());
        assertEquals(Encryption.NONE, config.encryption());
    }

    @Test
    void everyValueIsParsed() {
        assertEquals(Compression.LZ4, CommitLogConfig.parse(DIR + "commitlog_compression: lz4\n").compression());
        assertEquals(Compression.NONE, CommitLogConfig.parse(DIR + "commitlog_compression: none\n").compression());
        CommitLogConfig zstd = CommitLogConfig.parse(DIR + "commitlog_compression: zstd\ncommitlog_compression_level: 22\n");
        assertEquals(Compression.ZSTD, zstd.compression());
        assertEquals(22, zstd.compressionLevel());
        assertEquals(3, CommitLogConfig.parse(DIR + "commitlog_compression: zstd\n").compressionLevel(), "zstd's own default");
        assertEquals(Encryption.AES_GCM, CommitLogConfig.parse(DIR + "commitlog_encryption: aes-gcm\n").encryption());
        assertEquals(Encryption.NONE, CommitLogConfig.parse(DIR + "commitlog_encryption: none\n").encryption());
    }

    @Test
    void unknownCodecOrCipherNamesTheChoices() {
        assertRejected(() -> CommitLogConfig.parse(DIR + "commitlog_compression: snappy\n"), "commitlog_compression",
                "'snappy' is not one of none | lz4 | zstd (e.g. lz4)", "line 2");
        assertRejected(() -> CommitLogConfig.parse(DIR + "commitlog_compression: LZ4\n"), "commitlog_compression", "'LZ4' is not one of");
        assertRejected(() -> CommitLogConfig.parse(DIR + "commitlog_encryption: aes_gcm\n"), "commitlog_encryption",
                "'aes_gcm' is not one of none | aes-gcm (e.g. aes-gcm)");
        assertRejected(() -> CommitLogConfig.parse(DIR + "commitlog_encryption: true\n"), "commitlog_encryption", "'true' is not one of");
    }

    @Test
    void levelOnlyWithZstdAndInItsRange() {
        assertRejected(() -> CommitLogConfig.parse(DIR + "commitlog_compression: lz4\ncommitlog_compression_level: 3\n"),
                "commitlog_compression_level", "'3' is only used when commitlog_compression is zstd, but commitlog_compression is lz4", "line 3");
        assertRejected(() -> CommitLogConfig.parse(DIR + "commitlog_compression_level: 3\n"), "commitlog_compression_level",
                "commitlog_compression is none");
        assertRejected(() -> CommitLogConfig.parse(DIR + "commitlog_compression: zstd\ncommitlog_compression_level: 23\n"),
                "commitlog_compression_level", "'23' is out of range; expected a zstd level from 1 to 22");
        assertRejected(() -> CommitLogConfig.parse(DIR + "commitlog_compression: zstd\ncommitlog_compression_level: 0\n"),
                "commitlog_compression_level", "'0' is out of range");
        assertRejected(() -> CommitLogConfig.parse(DIR + "commitlog_compression: zstd\ncommitlog_compression_level: high\n"),
                "commitlog_compression_level", "'high' is not a whole number; expected a compression level (e.g. 3)");
    }

    @Test
    void theBuilderAppliesTheSameRules() {
        CommitLogConfig config = CommitLogConfig.builder(PATH).compression(Compression.ZSTD).compressionLevel(1)
                .encryption(Encryption.AES_GCM).build();
        assertEquals(1, config.compressionLevel());
        assertEquals(config, config.toBuilder().build());
        assertRejected(() -> CommitLogConfig.builder(PATH).compression(Compression.ZSTD).compressionLevel(-1).build(),
                "commitlog_compression_level", "'-1' is out of range");
        assertRejected(() -> CommitLogConfig.builder(PATH).compressionLevel(5).build(), "commitlog_compression_level",
                "'5' is only used when commitlog_compression is zstd");
        assertEquals(Compression.NONE, CommitLogConfig.builder(PATH).compression(Compression.LZ4).compression(null).build().compression(),
                "null unsets");
    }

    @Test
    void yamlNamesOfTheNewEnums() {
        assertEquals("none | lz4 | zstd", YamlNames.allowed(Compression.class));
        assertEquals("none | aes-gcm", YamlNames.allowed(Encryption.class));
        for (Encryption e : Encryption.values()) {
            assertEquals(e, YamlNames.parse(ConfigKey.COMMITLOG_ENCRYPTION, YamlNames.of(e), Encryption.class));
        }
    }
}
