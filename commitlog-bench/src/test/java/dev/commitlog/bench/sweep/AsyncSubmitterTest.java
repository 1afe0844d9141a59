package dev.commitlog.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An asynchronous submitter appends the records it is given in turn, from its own first one, as a
 * closed-loop writer does, so that the sweep's asynchronous section stores the same mix of records
 * (and compresses as the closed loop's does), not one record over and over.
 */
class AsyncSubmitterTest {
    @TempDir
    Path dir;

    @Test
    void appendsEveryRecordInTurnFromItsOwnFirst() throws Exception {
        byte[][] records = new byte[4][];
        for (int r = 0; r < records.length; r++) {
            records[r] = ("record-" + r).getBytes();
        }
        CellPhase phase = new CellPhase();
        AsyncSubmitter submitter = new AsyncSubmitter(8, phase);
        Set<String> appended = new HashSet<>();
        String[] firstAppended = new String[1];
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).build(),
                CommitLogOptions.builder().noJmx().build())) {
            Thread stopper = new Thread(() -> {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                phase.stop();
            });
            stopper.start();
            submitter.submitUntilStopped(log, records, 2);
            stopper.join();
            log.replay(0, (position, record) -> {
                ByteBuffer bytes = record.duplicate();
                byte[] copy = new byte[bytes.remaining()];
                bytes.get(copy);
                String text = new String(copy);
                appended.add(text);
                if (firstAppended[0] == null) {
                    firstAppended[0] = text;
                }
            });
        }
        assertEquals(Set.of("record-0", "record-1", "record-2", "record-3"), appended);
        assertEquals("record-2", firstAppended[0], "the submitter starts at the record it was given");
    }
}
