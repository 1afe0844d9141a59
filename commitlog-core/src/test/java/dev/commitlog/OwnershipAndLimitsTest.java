package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.testkit.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnershipAndLimitsTest {
    @TempDir
    Path dir;

    @Test
    void aSecondOpenOfTheSameDirectoryFailsAtOnce() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
            IOException e = assertThrows(IOException.class, () -> CommitLog.open(config(dir, SyncMode.BATCH).build()));
            assertTrue(e.getMessage().contains("already open"), e.getMessage());
            assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
            byte[] record = {1, 2, 3};
            log.append(record, 0, 3);
        }
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
            assertEquals(1, TestLogs.replayAll(log).size(), "the lock is released on close");
        }
    }

    @Test
    void aSecondProcessCannotOpenTheLog() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
            Process child = ChildJvm.start(ChildJvm.command(OpenAttemptChild.class, dir.toString()));
            String output = new String(child.getInputStream().readAllBytes());
            assertEquals(3, child.waitFor(), "the child's open must fail: " + output);
            assertTrue(output.contains("locked by another process"), output);
            assertNotNull(log);
        }
    }

    @Test
    void anOversizedRecordIsRefusedAndNothingIsWritten() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).maxRecordSize(1000).build())) {
            byte[] small = new byte[1000];
            log.append(small, 0, small.length);
            long durable = log.durablePosition();
            byte[] big = new byte[1001];
            RecordTooLargeException e = assertThrows(RecordTooLargeException.class, () -> log.append(big, 0, big.length));
            assertTrue(e.getMessage().contains("1001") && e.getMessage().contains("max_record_size"), e.getMessage());
            assertThrows(RecordTooLargeException.class, () -> log.claim(1001, new AppendClaim()));
            log.sync();
            assertEquals(durable, log.durablePosition(), "nothing was written");
            assertEquals(1, TestLogs.replayAll(log).size());
            assertEquals(2, log.metrics().oversizeRejected());
        }
    }

    @Test
    void segmentFilesAreReadableAndWritableByTheOwnerOnly() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
            for (int i = 0; i < 2000; i++) {
                log.append(new byte[100], 0, 100); // rolls over, so the allocator's files are checked too
            }
            List<Path> segments;
            try (Stream<Path> files = Files.list(dir)) {
                segments = files.filter(f -> SegmentDescriptor.parseId(f.getFileName().toString()) >= 0).toList();
            }
            assertTrue(segments.size() > 2);
            for (Path segment : segments) {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(segment)), segment.toString());
            }
        }
    }

    @Test
    void zeroCopyClaimsCommitAbortAndRejectWrongLengths() throws Exception {
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.GROUP).segmentSize(TestLogs.SMALL_SEGMENT).build())) {
            AppendClaim claim = new AppendClaim();
            Bytes<?> out = log.claim(16, claim);
            out.writeLong(42L).writeLong(-7L);
            long first = claim.commit();

            log.claim(8, claim).writeLong(1L);
            claim.abort();

            log.claim(12, claim).writeInt(5);
            IllegalStateException e = assertThrows(IllegalStateException.class, claim::commit);
            assertTrue(e.getMessage().contains("claimed 12 bytes but wrote 4"), e.getMessage());

            byte[] after = {9, 9};
            long last = log.append(after, 0, 2);

            List<TestLogs.Entry> replayed = TestLogs.replayAll(log);
            assertEquals(2, replayed.size(), "aborted claims hold no record");
            assertEquals(first, replayed.get(0).position());
            Bytes<?> decoded = Bytes.wrapForRead(replayed.get(0).payload());
            assertEquals(42L, decoded.readLong());
            assertEquals(-7L, decoded.readLong());
            assertEquals(last, replayed.get(1).position());
            assertThrows(IllegalStateException.class, claim::commit, "a finished claim cannot be committed twice");
        }
    }

    /** Tries to open a log that another process holds; exits 3 with the error message. */
    public static final class OpenAttemptChild {
        public static void main(String[] args) {
            try {
                CommitLog.open(config(Path.of(args[0]), SyncMode.BATCH).build()).close();
                System.out.println("opened");
                System.exit(0);
            } catch (IOException e) {
                System.out.println(e.getMessage());
                System.exit(3);
            }
        }
    }
}
