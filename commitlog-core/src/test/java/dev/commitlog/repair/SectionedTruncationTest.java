package dev.commitlog.repair;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogException;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.SectionedLogs;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.section.SectionBytes;
import dev.commitlog.section.SectionDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
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
        append(config, options.build(), 7, records, positions);
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

    /**
     * An interrupted cut can leave the section it rewrites torn: a second run then refuses, as
     * for any damage before the cut, and says to copy the segment back from the backup first;
     * with it copied back, the cut goes through. Fails when the refusal does not say so.
     */
    @Test
    void aCutRefusedForATornSectionSaysToCopyTheSegmentBackFromTheBackup() throws Exception {
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC).syncPeriod(Duration.ofSeconds(30))
                .segmentSize(64 * 1024).compression(Compression.LZ4).build();
        List<Long> positions = new ArrayList<>();
        append(config, CommitLogOptions.builder().noJmx().build(), 9, new ArrayList<>(), positions);
        long position = positions.get(RECORDS / 2 + 7);
        Path torn = null;
        byte[] original = null;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".log")).sorted().toList()) {
                byte[] bytes = Files.readAllBytes(file);
                for (int at : SectionBytes.sectionOffsets(bytes)) {
                    if (torn == null && SectionBytes.logicalEnd(bytes, at) > position
                            && ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(at + SectionDescriptor.LOGICAL_START_OFFSET) <= position) {
                        torn = file;
                        original = bytes.clone();
                        Arrays.fill(bytes, at + SectionDescriptor.HEADER_LENGTH, at + SectionDescriptor.HEADER_LENGTH + 64, (byte) 0x5a); // the rewrite stopped part way
                        Files.write(file, bytes);
                    }
                }
            }
        }
        assertNotNull(torn, "a section holds position " + position);
        Path tornFile = torn;
        CommitLogException refused = assertThrows(CommitLogException.class,
                () -> new LogTruncator().truncateAfter(dir, position, backups.resolve("second")));
        assertTrue(refused.getMessage().contains("if a truncate-after of this log was interrupted, copy " + tornFile.getFileName()
                + " back from its backup directory first"), refused.getMessage());

        Files.write(torn, original);
        assertEquals(RECORDS / 2 + 7, new LogTruncator().truncateAfter(dir, position, backups.resolve("third")).recordsKept());
    }

    /** Appends {@link #RECORDS} JSON-like records of 150-399 bytes, made from {@code seed}; adds each and its position. */
    private static void append(CommitLogConfig config, CommitLogOptions options, long seed, List<byte[]> records, List<Long> positions)
            throws Exception {
        Random random = new Random(seed);
        try (CommitLog log = CommitLog.open(config, options)) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] record = SectionedLogs.json(random, i, 150 + random.nextInt(250));
                records.add(record);
                positions.add(log.append(record, 0, record.length));
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
