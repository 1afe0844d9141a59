package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Golden files freeze format version 1: two 64 KiB segments written by the first release are checked
 * into test resources (golden/v1) and must replay the same records, at the same positions, for ever.
 * They hold records of many sizes (0 to 1,000 bytes), one aborted claim and a segment rollover (so
 * an end marker). {@link #main} regenerates them; never do that unless the format version changes.
 */
class GoldenFormatTest {
    static final String[] FILES = {"commitlog-00000000000000000000.log", "commitlog-00000000000000000001.log"};
    static final int RECORDS = 160;

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
        for (String file : FILES) {
            try (InputStream in = GoldenFormatTest.class.getResourceAsStream("/golden/v1/" + file)) {
                assertNotNull(in, "golden file " + file);
                Files.copy(in, dir.resolve(file));
            }
        }
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

    /** Writes the golden files into the directory given as the argument. */
    public static void main(String[] args) throws IOException {
        CommitLogConfig config = CommitLogConfig.builder(Path.of(args[0])).syncMode(SyncMode.BATCH).segmentSize(64 * 1024).build();
        try (CommitLog log = CommitLog.open(config)) {
            AppendClaim claim = new AppendClaim();
            for (int i = 0; i < RECORDS; i++) {
                if (i == 7) {
                    log.claim(40, claim).writeLong(7L);
                    claim.abort();
                }
                byte[] record = record(i);
                log.append(record, 0, record.length);
            }
        }
    }
}
