package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Golden files freeze each format version: segments written by the release that introduced it are
 * checked into test resources ({@code golden/v1}, {@code golden/v2}) and must replay the same
 * records, at the same positions, for ever.
 * <ul>
 *   <li>Version 1: two 64 KiB segments of records of many sizes (0 to 1,000 bytes), one aborted
 *       claim and a segment rollover (so an end marker).</li>
 *   <li>Version 2: the same kinds of frames, written by a log that discarded its first segments as
 *       it went with commitlog_recycle_segments on, so the segments left are reused files: salt 1
 *       and, past their records, the frames of their former life (the tail, segment 4, holds a
 *       few records; segment 5 is the one prepared to follow it).</li>
 *   <li>Version 3 (sections): the version 2 log's records and discards, written by a log with
 *       {@code commitlog_compression: lz4} ({@code golden/v3-lz4}) and one with {@code zstd} and
 *       {@code commitlog_encryption: aes-gcm} under {@link SectionedLogs#keys} key 1
 *       ({@code golden/v3-zstd-aes}): reused files whose sections follow earlier lives' sections.</li>
 * </ul>
 * {@link #main} regenerates the current version's files; never do that unless the format version changes.
 */
class GoldenFormatTest {
    static final String[] FILES = {"commitlog-00000000000000000000.log", "commitlog-00000000000000000001.log"};
    static final int RECORDS = 160;
    static final String[] V2_FILES = {"commitlog-00000000000000000003.log", "commitlog-00000000000000000004.log",
        "commitlog-00000000000000000005.log"};
    static final int V2_RECORDS = 520;
    /** Every 40 records but the last 40, the writer discarded everything durable: the files left hold the last ones. */
    static final int V2_DISCARD_EVERY = 40;

    @TempDir
    Path dir;

    static byte[] record(int i) {
        int length = (i * 97) % 1001;
        byte[] bytes = new byte[length];
        byte[] text = ("golden v1 record " + i + " ").getBytes(StandardCharsets.US_ASCII);
        for (int b = 0; b < length; b++) {
            bytes[b] = text[b % text.length];
        }
        return bytes;
    }

    @Test
    void formatVersion1SegmentsReplayForever() throws IOException {
        copyGolden("v1", FILES);
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(64 * 1024)
                .replayPolicy(ReplayPolicy.STRICT).build();
        try (CommitLog log = CommitLog.open(config)) {
            List<TestLogs.Entry> replayed = TestLogs.replayAll(log);
            assertEquals(RECORDS, replayed.size());
            long expectedPosition = 64;
            for (int i = 0; i < RECORDS; i++) {
                TestLogs.Entry entry = replayed.get(i);
                assertArrayEquals(record(i), entry.payload(), "record " + i);
                assertTrue(entry.position() >= expectedPosition, "positions increase");
                expectedPosition = entry.position() + 1;
            }
            assertEquals(64, replayed.get(0).position());
            assertTrue(replayed.get(RECORDS - 1).position() > 64 * 1024, "the last records are in the second segment");
        }
    }

    @Test
    void formatVersion2SegmentsReplayForever() throws IOException {
        copyGolden("v2", V2_FILES);
        int salted = 0;
        for (String file : V2_FILES) {
            ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(dir.resolve(file))).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(2, header.getInt(SegmentDescriptor.VERSION_OFFSET), file);
            salted += file.endsWith(SegmentDescriptor.FILE_SUFFIX) && header.getInt(SegmentDescriptor.SALT_OFFSET) > 0 ? 1 : 0;
        }
        assertEquals(V2_FILES.length, salted, "the golden log's segments are reused files");
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(64 * 1024)
                .replayPolicy(ReplayPolicy.STRICT).build();
        try (CommitLog log = CommitLog.open(config)) {
            assertTheGoldenRecordsLeft(log, false);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"v3-lz4", "v3-zstd-aes"})
    void formatVersion3SegmentsReplayForever(String version) throws IOException {
        String[] files = goldenFiles(version);
        copyGolden(version, files);
        int salted = 0;
        for (String file : files) {
            ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(dir.resolve(file))).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(SegmentDescriptor.FORMAT_VERSION_SECTIONS, header.getInt(SegmentDescriptor.VERSION_OFFSET), file);
            salted += header.getInt(SegmentDescriptor.SALT_OFFSET) != 0 ? 1 : 0;
        }
        assertTrue(salted > 0, "the golden log holds reused files");
        // Read as a log configured plain: the files say what they are; the key is needed for the encrypted one.
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(64 * 1024)
                .replayPolicy(ReplayPolicy.STRICT).build();
        try (CommitLog log = CommitLog.open(config, CommitLogOptions.builder().noJmx().keyProvider(SectionedLogs.keys(1)).build())) {
            assertTheGoldenRecordsLeft(log, true);
        }
    }

    /** The segment files of a golden directory, by the listing checked in beside them. */
    private static String[] goldenFiles(String version) throws IOException {
        try (InputStream in = GoldenFormatTest.class.getResourceAsStream("/golden/" + version + "/FILES")) {
            assertNotNull(in, "golden/" + version + "/FILES");
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+");
        }
    }

    /** Writes version 3's golden files when asked: {@code -Dgolden.v3=<directory>} (two subdirectories). */
    @Test
    @EnabledIfSystemProperty(named = "golden.v3", matches = ".+")
    void writeVersion3GoldenFiles() throws IOException {
        Path root = Path.of(System.getProperty("golden.v3"));
        writeGolden(root.resolve("v3-lz4"), new SectionedLogs.Sections(Compression.LZ4, Encryption.NONE));
        writeGolden(root.resolve("v3-zstd-aes"), new SectionedLogs.Sections(Compression.ZSTD, Encryption.AES_GCM));
    }

    private static void writeGolden(Path directory, SectionedLogs.Sections sections) throws IOException {
        CommitLogConfig config = sections.apply(CommitLogConfig.builder(directory).syncMode(SyncMode.BATCH).segmentSize(64 * 1024)
                .recycleSegments(4)).build();
        try (CommitLog log = CommitLog.open(config, sections.options().build())) {
            appendGoldenRecords(log);
        }
        try (var list = Files.list(directory)) {
            String names = String.join("\n", list.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(SegmentDescriptor.FILE_SUFFIX)).sorted().toList());
            Files.writeString(directory.resolve("FILES"), names + "\n");
        }
    }

    private void copyGolden(String version, String[] files) throws IOException {
        for (String file : files) {
            try (InputStream in = GoldenFormatTest.class.getResourceAsStream("/golden/" + version + "/" + file)) {
                assertNotNull(in, "golden file " + file);
                Files.copy(in, dir.resolve(file));
            }
        }
    }

    /**
     * The log replays the last records {@link #appendGoldenRecords} wrote (those of the segments its
     * discards left), in order at increasing positions; with {@code readEach}, each reads back at its position too.
     */
    private static void assertTheGoldenRecordsLeft(CommitLog log, boolean readEach) throws IOException {
        List<TestLogs.Entry> replayed = TestLogs.replayAll(log);
        int first = V2_RECORDS - replayed.size();
        assertTrue(first > 0 && first <= V2_RECORDS - V2_DISCARD_EVERY, "the records of the segments left: " + replayed.size());
        long previous = -1;
        for (int i = 0; i < replayed.size(); i++) {
            TestLogs.Entry entry = replayed.get(i);
            assertArrayEquals(record(first + i), entry.payload(), "record " + (first + i));
            assertTrue(entry.position() > previous, "positions increase");
            previous = entry.position();
            if (readEach) {
                assertArrayEquals(record(first + i), log.readAt(entry.position()), "readAt " + entry.position());
            }
        }
    }

    /** What every golden set holds: the records, two aborted claims, and discards that recycle files. */
    private static void appendGoldenRecords(CommitLog log) throws IOException {
        AppendClaim claim = new AppendClaim();
        for (int i = 0; i < V2_RECORDS; i++) {
            if (i == 7 || i == V2_RECORDS - 3) {
                log.claim(40, claim).writeLong(7L);
                claim.abort();
            }
            byte[] record = record(i);
            log.append(record, 0, record.length);
            if (i % V2_DISCARD_EVERY == V2_DISCARD_EVERY - 1 && i < V2_RECORDS - V2_DISCARD_EVERY) {
                log.discardUpTo(log.durablePosition());
            }
        }
    }

    /** Writes the current version's golden files into the directory given as the argument. */
    public static void main(String[] args) throws IOException {
        CommitLogConfig config = CommitLogConfig.builder(Path.of(args[0])).syncMode(SyncMode.BATCH).segmentSize(64 * 1024)
                .recycleSegments(4).build();
        try (CommitLog log = CommitLog.open(config)) {
            appendGoldenRecords(log);
        }
    }
}
