package dev.commitlog.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inspector the tools use tells its observer, and its refusals, what kind of damage it met:
 * the tools print a torn tail as a notice and corruption as a failure by that kind alone.
 */
class LogInspectorTest {
    private static final int SEGMENT_SIZE = 64 * 1024;

    @TempDir
    Path dir;

    private long end;

    @BeforeEach
    void writeLog() throws IOException {
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(SEGMENT_SIZE).build(),
                CommitLogOptions.builder().noJmx().build())) {
            byte[] record = new byte[300];
            for (int i = 0; i < 500; i++) {
                log.append(record, 0, record.length);
            }
            end = log.durablePosition();
        }
    }

    /** What an observer heard, with the kind. */
    private record Heard(Damage damage, long position, String reason) {
    }

    private static final class Listening implements LogInspector.Observer {
        final List<Heard> heard = new ArrayList<>();

        @Override
        public boolean onRecord(long position, ByteBuffer payload) {
            return true;
        }

        @Override
        public void onCorruption(Path file, long offset, long position, Damage damage, String reason, String action) {
            heard.add(new Heard(damage, position, reason));
        }

        @Override
        public void onCorruption(Path file, long offset, long position, String reason, String action) {
            fail("a report without its kind of damage: " + reason);
        }
    }

    /** A frame header with no valid record behind it just past the last record: what a torn write leaves. */
    private void tearAfterTheEnd() throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve(SegmentDescriptor.fileName(end / SEGMENT_SIZE)).toFile(), "rw")) {
            file.seek(end % SEGMENT_SIZE);
            file.writeInt(Integer.reverseBytes(RecordDescriptor.frameLength(100)));
            file.writeInt(0x5a5a5a5a);
        }
    }

    @Test
    void aTornTailIsReportedAsOne() throws IOException {
        tearAfterTheEnd();
        Listening observer = new Listening();
        LogInspector.Summary summary = new LogInspector().walk(dir, 0, ReplayPolicy.TOLERATE_TAIL, observer);
        assertEquals(List.of(Damage.TORN_TAIL), observer.heard.stream().map(Heard::damage).toList(), observer.heard.toString());
        assertEquals(end, observer.heard.get(0).position());
        assertEquals(end, summary.endPosition());
    }

    @Test
    void underStrictATornTailIsRefusedAsOne() throws IOException {
        tearAfterTheEnd();
        CorruptLogException e = assertThrows(CorruptLogException.class,
                () -> new LogInspector().walk(dir, 0, ReplayPolicy.STRICT, new Listening()));
        assertEquals(Damage.TORN_TAIL, e.damage());
        assertEquals(end, e.position());
    }

    @Test
    void aDamagedHeaderAfterTheEndIsReportedAsOne() throws IOException {
        long next;
        try (Stream<Path> files = Files.list(dir)) {
            next = files.mapToLong(f -> SegmentDescriptor.parseId(f.getFileName().toString())).max().orElseThrow() + 1;
        }
        Path misnamed = dir.resolve(SegmentDescriptor.fileName(next));
        Files.copy(dir.resolve(SegmentDescriptor.fileName(0)), misnamed, StandardCopyOption.REPLACE_EXISTING); // its header names id 0

        Listening observer = new Listening();
        LogInspector.Summary summary = new LogInspector().walk(dir, 0, ReplayPolicy.TOLERATE_TAIL, observer);
        assertEquals(List.of(Damage.DAMAGED_HEADER), observer.heard.stream().map(Heard::damage).toList(), observer.heard.toString());
        assertTrue(observer.heard.get(0).reason().startsWith("damaged segment header: header says segment id 0"), observer.heard.toString());
        assertEquals(end, summary.endPosition());
    }
}
