package dev.commitlog.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.SectionedLogs;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.disk.MappedStorageLayer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code truncate-after} over compressed and encrypted logs: cut at a record inside a section
 * (Periodic, whose flushes hold many records) or at a section's first record (Batch, one writer),
 * the log opens under {@code strict} and replays exactly the records before the cut, appends go on
 * after it, and an encrypted log holds no plaintext
 * afterwards (the cut section is stored again encrypted). Fails when the section holding the cut is
 * not stored again (the records after the cut stay, and the check after the cut refuses).
 */
class SectionedTruncationTest {
    private static final int RECORDS = 600;

    @TempDir
    Path dir;

    @TempDir
    Path backups;

    static Stream<Arguments> cases() {
        return Stream.of(Compression.LZ4, Compression.NONE, Compression.ZSTD).flatMap(c -> Stream.of(Encryption.AES_GCM, Encryption.NONE)
                .filter(e -> c != Compression.NONE || e != Encryption.NONE)
                .flatMap(e -> Stream.of(SyncMode.PERIODIC, SyncMode.BATCH).map(mode -> Arguments.of(c, e, mode))));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void aCutInsideASectionLeavesExactlyTheRecordsBeforeIt(Compression compression, Encryption encryption, SyncMode mode) throws Exception {
        KeyProvider keys = encryption == Encryption.AES_GCM ? SectionedLogs.keys(1) : null;
        CommitLogConfig.Builder builder = CommitLogConfig.builder(dir).syncMode(mode).segmentSize(64 * 1024).compression(compression)
                .encryption(encryption).replayPolicy(ReplayPolicy.STRICT);
        CommitLogConfig config = (mode == SyncMode.PERIODIC ? builder.syncPeriod(Duration.ofSeconds(30)) : builder).build();
        CommitLogOptions.Builder options = CommitLogOptions.builder().noJmx();
        if (keys != null) {
            options.keyProvider(keys);
        }
        List<Long> positions = new ArrayList<>();
        List<byte[]> records = new ArrayList<>();
        Random random = new Random(7);
        try (CommitLog log = CommitLog.open(config, options.build())) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] record = SectionedLogs.json(random, i, 150 + random.nextInt(250));
                records.add(record);
                positions.add(log.append(record, 0, record.length));
            }
        }
        int cutAt = RECORDS / 2 + 7;
        long position = positions.get(cutAt);

        LogTruncator.Result result = new LogTruncator(new MappedStorageLayer(), keys).truncateAfter(dir, position, backups.resolve("cut"));
        assertTrue(result.changed());
        assertEquals(position, result.position());
        assertNotNull(result.cutFile());
        assertEquals(cutAt, result.recordsKept());

        try (CommitLog log = CommitLog.open(config, options.build())) {
            List<byte[]> replayed = new ArrayList<>();
            log.replay(0, (p, record) -> {
                byte[] copy = new byte[record.remaining()];
                record.duplicate().get(copy);
                replayed.add(copy);
            });
            assertEquals(cutAt, replayed.size(), "records replayed after the cut at " + position);
            for (int i = 0; i < cutAt; i++) {
                assertArrayEquals(records.get(i), replayed.get(i), "record " + i);
            }
            byte[] next = "after the cut".getBytes(StandardCharsets.US_ASCII);
            // A sectioned tail with records is sealed on open: appends go on in the next segment.
            assertTrue(log.append(next, 0, next.length) >= position, "appends go on at or after the cut");
        }
        if (encryption == Encryption.AES_GCM) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    assertFalse(contains(Files.readAllBytes(file), "PLAINTEXT-".getBytes(StandardCharsets.US_ASCII)), file + " holds plaintext");
                }
            }
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }
}
