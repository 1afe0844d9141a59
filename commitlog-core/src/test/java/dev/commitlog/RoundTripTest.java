package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static dev.commitlog.TestLogs.replayAll;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RoundTripTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void recordsOfEverySizeReplayInOrderWithTheirPositions(SyncMode mode) throws Exception {
        List<TestLogs.Entry> appended = new ArrayList<>();
        try (CommitLog log = CommitLog.open(config(dir, mode).build())) {
            for (int i = 0; i < 300; i++) {
                byte[] record = payload(i, i % 37 == 0 ? 0 : (i * 13) % 2000);
                long position = i % 2 == 0 ? log.append(record, 0, record.length) : log.append(ByteBuffer.wrap(record));
                appended.add(new TestLogs.Entry(position, record));
            }
            log.sync();
            TestLogs.assertReplaysExactly(appended, replayAll(log), "live");
        }
        try (CommitLog log = CommitLog.open(config(dir, mode).build())) {
            TestLogs.assertReplaysExactly(appended, replayAll(log), "reopened");
        }
    }

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void reopenedLogAppendsAfterExistingData(SyncMode mode) throws Exception {
        List<TestLogs.Entry> appended = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            try (CommitLog log = CommitLog.open(config(dir, mode).build())) {
                for (int i = 0; i < 50; i++) {
                    byte[] record = payload(round * 100 + i, 100);
                    long position = log.append(record, 0, record.length);
                    if (!appended.isEmpty()) {
                        assertTrue(position > appended.get(appended.size() - 1).position(), "positions increase across reopen");
                    }
                    appended.add(new TestLogs.Entry(position, record));
                }
            }
        }
        try (CommitLog log = CommitLog.open(config(dir, mode).build())) {
            TestLogs.assertReplaysExactly(appended, replayAll(log), "reopened");
        }
    }

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void appendFromTheMiddleOfAByteBufferLeavesItsPositionAlone(SyncMode mode) throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, mode).build())) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(64);
            for (int i = 0; i < 64; i++) {
                buffer.put(i, (byte) i);
            }
            buffer.position(10).limit(50);
            log.append(buffer);
            assertEquals(10, buffer.position());
            log.sync();
            byte[] replayed = replayAll(log).get(0).payload();
            assertEquals(40, replayed.length);
            assertEquals(10, replayed[0]);
            assertEquals(49, replayed[39]);
        }
    }
}
