package dev.commitlog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.config.SyncMode;
import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.format.SegmentDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/** Helpers for tests of compressed and encrypted logs: keys, settings, JSON-like records, the files' versions. */
public final class SectionedLogs {
    private SectionedLogs() {
    }

    /** The section settings the tests run over: each codec alone, the cipher alone, and both together. */
    record Sections(Compression compression, Encryption encryption) {
        CommitLogConfig.Builder apply(CommitLogConfig.Builder builder) {
            return builder.compression(compression).encryption(encryption);
        }

        CommitLogOptions.Builder options() {
            CommitLogOptions.Builder builder = CommitLogOptions.builder().noJmx();
            return encryption == Encryption.AES_GCM ? builder.keyProvider(keys(1)) : builder;
        }

        @Override
        public String toString() {
            return compression + "+" + encryption;
        }
    }

    static Stream<Sections> allSections() {
        return Stream.of(new Sections(Compression.LZ4, Encryption.NONE), new Sections(Compression.ZSTD, Encryption.NONE),
                new Sections(Compression.NONE, Encryption.AES_GCM), new Sections(Compression.LZ4, Encryption.AES_GCM),
                new Sections(Compression.ZSTD, Encryption.AES_GCM));
    }

    /** Keys 1..count, fixed bytes per id, the highest current. */
    public static KeyProvider keys(int count) {
        return new KeyProvider() {
            @Override
            public int currentKeyId() {
                return count;
            }

            @Override
            public SecretKey key(int keyId) {
                if (keyId < 1 || keyId > count) {
                    return null;
                }
                byte[] key = new byte[32];
                new Random(keyId * 7919L).nextBytes(key);
                return new SecretKeySpec(key, "AES");
            }
        };
    }

    /** A JSON-like record as a storage node might log it: {@code length} bytes, its id spelled out where a scan finds it. */
    public static byte[] json(Random random, int id, int length) {
        StringBuilder text = new StringBuilder(length + 128);
        text.append("{\"id\":").append(id).append(",\"marker\":\"PLAINTEXT-").append(id).append("-END\"");
        while (text.length() < length) {
            text.append(",\"name\":\"user-").append(random.nextInt(100_000)).append("\",\"balance\":").append(random.nextInt(100_000));
        }
        return text.substring(0, length).getBytes(StandardCharsets.US_ASCII);
    }

    static CommitLogConfig.Builder config(Path dir, SyncMode mode) {
        CommitLogConfig.Builder builder = CommitLogConfig.builder(dir).syncMode(mode).segmentSize(TestLogs.SMALL_SEGMENT);
        return mode == SyncMode.PERIODIC ? builder.syncPeriod(java.time.Duration.ofMillis(2)) : builder;
    }

    /** The segment files in {@code dir}, by name. */
    static List<Path> segmentFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(SegmentDescriptor.FILE_SUFFIX)).sorted().toList();
        }
    }

    /** Every segment file's header says {@code version}. */
    static void assertVersions(Path dir, int version) throws IOException {
        for (Path file : segmentFiles(dir)) {
            ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(version, header.getInt(SegmentDescriptor.VERSION_OFFSET), file + "'s format version");
        }
    }
}
