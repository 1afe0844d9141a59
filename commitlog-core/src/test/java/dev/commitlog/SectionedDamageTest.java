package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.SectionedLogs.Sections;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.section.MissingKeyException;
import dev.commitlog.section.SectionBytes;
import dev.commitlog.section.SectionDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a compressed or encrypted log does with its files: no plaintext of an encrypted log on disk;
 * a tampered section (its CRCs recomputed) is damage for the replay policy, never a record; a key
 * the provider does not have refuses the open and changes nothing; rotated keys read on; a recycled
 * file's sections of an earlier life never read as live.
 */
class SectionedDamageTest {
    private static final Sections ENCRYPTED = new Sections(Compression.NONE, Encryption.AES_GCM);
    private static final Sections COMPRESSED_ENCRYPTED = new Sections(Compression.LZ4, Encryption.AES_GCM);
    private static final Sections COMPRESSED = new Sections(Compression.LZ4, Encryption.NONE);

    @TempDir
    Path dir;

    /** Appends {@code count} JSON-like records, each carrying "PLAINTEXT-<id>-END"; returns them by position. */
    private static Map<Long, byte[]> fill(CommitLog log, int count) {
        Map<Long, byte[]> appended = new TreeMap<>();
        Random random = new Random(42);
        for (int i = 0; i < count; i++) {
            byte[] record = SectionedLogs.json(random, i, 60 + random.nextInt(300));
            appended.put(log.append(record, 0, record.length), record);
        }
        return appended;
    }

    private CommitLogConfig config(Sections sections) {
        return sections.apply(SectionedLogs.config(dir, SyncMode.BATCH)).build();
    }

    @ParameterizedTest
    @MethodSource("encryptedSettings")
    void noPlaintextOfAnEncryptedLogIsOnDisk(Sections sections) throws Exception {
        try (CommitLog log = CommitLog.open(config(sections), sections.options().build())) {
            fill(log, 1500);
            log.discardUpTo(log.durablePosition() / 2); // spares too: every file in the directory is scanned
        }
        try (CommitLog log = CommitLog.open(config(sections), sections.options().build())) {
            fill(log, 100); // and a reopened, sealed tail
        }
        List<Path> scanned = scanForPlaintext(dir, 0);
        assertTrue(scanned.size() > 3, "files scanned: " + scanned);
    }

    static List<Sections> encryptedSettings() {
        return List.of(ENCRYPTED, COMPRESSED_ENCRYPTED);
    }

    /** The scan finds the marker in a plain log, and in a compressed one (LZ4 keeps literals): it is not blind. */
    @Test
    void theScanFindsPlaintextWhereItIs() throws Exception {
        try (CommitLog log = CommitLog.open(SectionedLogs.config(dir, SyncMode.BATCH).build(), CommitLogOptions.builder().noJmx().build())) {
            fill(log, 50);
        }
        assertThrows(AssertionError.class, () -> scanForPlaintext(dir, 0));
    }

    /** Fails naming the file and offset where "PLAINTEXT-" occurs in any file of {@code directory}; returns the files scanned. */
    static List<Path> scanForPlaintext(Path directory, int unused) throws IOException {
        byte[] marker = "PLAINTEXT-".getBytes(StandardCharsets.US_ASCII);
        List<Path> scanned = new ArrayList<>();
        try (var files = Files.walk(directory)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                byte[] bytes = Files.readAllBytes(file);
                for (int i = 0; i + marker.length <= bytes.length; i++) {
                    if (bytes[i] == marker[0] && Arrays.equals(bytes, i, i + marker.length, marker, 0, marker.length)) {
                        fail("plaintext at offset " + i + " of " + file);
                    }
                }
                scanned.add(file);
            }
        }
        return scanned;
    }

    @ParameterizedTest
    @MethodSource("tamperedSettings")
    void aTamperedSectionIsDamageNeverARecord(Sections sections) throws Exception {
        Map<Long, byte[]> appended;
        try (CommitLog log = CommitLog.open(config(sections), sections.options().build())) {
            appended = fill(log, 1500);
        }
        List<Path> segments = SectionedLogs.segmentFiles(dir);
        assertTrue(segments.size() >= 4, "segments: " + segments);
        Path victim = segments.get(1);
        flipBodyByteAndRecomputeCrcs(victim, 2);

        // Below the durable mark: corruption, which strict refuses and skip_corrupt reports and passes.
        CorruptLogException refused = assertThrows(CorruptLogException.class,
                () -> CommitLog.open(config(sections), sections.options().build()).close());
        assertTrue(refused.getMessage().contains(victim.getFileName().toString()), refused.getMessage());
        List<String> reports = new ArrayList<>();
        CommitLogConfig skipping = config(sections).toBuilder().replayPolicy(ReplayPolicy.SKIP_CORRUPT).build();
        try (CommitLog log = CommitLog.open(skipping, sections.options()
                .corruptionListener((file, offset, position, reason, action) -> reports.add(file.getFileName() + " " + reason)).build())) {
            List<TestLogs.Entry> replayed = TestLogs.replayAll(log);
            assertFalse(reports.isEmpty(), "the damage was reported");
            assertTrue(reports.get(0).startsWith(victim.getFileName().toString()), reports.toString());
            if (sections.encryption() == Encryption.AES_GCM) {
                assertTrue(reports.get(0).contains("NOT_AUTHENTIC"), reports.toString());
            }
            assertTrue(replayed.size() < appended.size(), "records of the damaged section are not replayed");
            for (TestLogs.Entry entry : replayed) {
                assertArrayEquals(appended.get(entry.position()), entry.payload(), "every replayed record is one appended there");
            }
        }
    }

    static List<Sections> tamperedSettings() {
        return List.of(ENCRYPTED, COMPRESSED_ENCRYPTED, COMPRESSED);
    }

    /**
     * Flips a byte of the body of the {@code index}th section of {@code file}, then recomputes the body
     * CRC and the header CRC, so that only the cipher's tag (or, unencrypted, the decompression and
     * the frames' own CRCs) can notice.
     */
    static void flipBodyByteAndRecomputeCrcs(Path file, int index) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        List<Integer> sections = SectionBytes.sectionOffsets(bytes);
        assertTrue(sections.size() > index, "a section " + index + " in " + file + ": " + sections);
        int at = sections.get(index);
        bytes[at + SectionDescriptor.HEADER_LENGTH + SectionBytes.storedLength(bytes, at) / 2] ^= 0x10;
        SectionBytes.recomputeCrcs(bytes, at);
        Files.write(file, bytes);
    }

    @Test
    void aKeyTheProviderDoesNotHaveRefusesTheOpenAndChangesNothing() throws Exception {
        CommitLogConfig config = config(ENCRYPTED);
        try (CommitLog log = CommitLog.open(config, CommitLogOptions.builder().noJmx().keyProvider(SectionedLogs.keys(2)).build())) {
            fill(log, 300); // under key 2
        }
        Map<Path, byte[]> before = contents(dir);
        MissingKeyException e = assertThrows(MissingKeyException.class, () -> CommitLog.open(config,
                CommitLogOptions.builder().noJmx().keyProvider(SectionedLogs.keys(1)).build()).close());
        assertTrue(e.getMessage().contains("key id 2"), e.getMessage());
        Map<Path, byte[]> after = contents(dir);
        assertEquals(before.keySet(), after.keySet(), "no file made or removed");
        for (Path file : before.keySet()) {
            assertArrayEquals(before.get(file), after.get(file), file + " unchanged");
        }
    }

    @Test
    void rotatedKeysReadOn() throws Exception {
        CommitLogConfig config = config(COMPRESSED_ENCRYPTED);
        Map<Long, byte[]> appended = new TreeMap<>();
        try (CommitLog log = CommitLog.open(config, CommitLogOptions.builder().noJmx().keyProvider(SectionedLogs.keys(1)).build())) {
            appended.putAll(fill(log, 300));
        }
        try (CommitLog log = CommitLog.open(config, CommitLogOptions.builder().noJmx().keyProvider(SectionedLogs.keys(2))
                .corruptionListener(TestLogs.NO_DAMAGE).build())) {
            byte[] more = "under key 2".getBytes(StandardCharsets.US_ASCII);
            appended.put(log.append(more, 0, more.length), more);
            TestLogs.assertReplaysExactly(appended, TestLogs.replayAll(log), "keys 1 and 2");
        }
    }

    @Test
    void aRecycledFilesEarlierSectionsNeverReadAsLive() throws Exception {
        CommitLogConfig config = config(COMPRESSED_ENCRYPTED).toBuilder().recycleSegments(4).build();
        Map<Long, byte[]> all = new TreeMap<>();
        long discarded = 0;
        try (CommitLog log = CommitLog.open(config, COMPRESSED_ENCRYPTED.options().build())) {
            for (int round = 0; round < 4; round++) {
                all.putAll(fill(log, 700));
                discarded = log.durablePosition();
                log.discardUpTo(discarded); // every segment but the tail becomes a spare, reused by the next round
            }
            byte[] last = "the last record".getBytes(StandardCharsets.US_ASCII);
            all.put(log.append(last, 0, last.length), last);
        }
        boolean reused = false;
        for (Path segment : SectionedLogs.segmentFiles(dir)) {
            reused |= ByteBuffer.wrap(Files.readAllBytes(segment)).order(ByteOrder.LITTLE_ENDIAN).getInt(SegmentDescriptor.SALT_OFFSET) != 0;
        }
        assertTrue(reused, "a segment was made from a spare (its salt is above 0)");
        try (CommitLog log = CommitLog.open(config, COMPRESSED_ENCRYPTED.options().corruptionListener(TestLogs.NO_DAMAGE).build())) {
            List<TestLogs.Entry> replayed = TestLogs.replayAll(log);
            for (TestLogs.Entry entry : replayed) {
                assertArrayEquals(all.get(entry.position()), entry.payload(), "the record at " + entry.position() + " is this life's");
            }
            long from = discarded;
            List<Long> kept = all.keySet().stream().filter(p -> p >= from).toList();
            List<Long> tail = replayed.stream().map(TestLogs.Entry::position).filter(p -> p >= from).toList();
            assertEquals(kept, tail, "every record after the discard replays, in order");
        }
    }

    private static Map<Path, byte[]> contents(Path directory) throws IOException {
        Map<Path, byte[]> contents = new TreeMap<>();
        try (var files = Files.list(directory)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                contents.put(file, Files.readAllBytes(file));
            }
        }
        return contents;
    }
}
