package dev.commitlog.examples;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TypedRecordsTest {
    @TempDir
    Path dir;

    @Test
    void theExampleReplaysTheTradesItAppended() throws Exception {
        TypedRecords.Replayed result = TypedRecords.run(dir, new PrintStream(OutputStream.nullOutputStream()));
        assertEquals(1_000, result.appended().size());
        assertEquals(result.appended(), result.replayed());
        assertEquals(new Trade(999, "UMBRELLA", 100, 16_993), result.replayed().get(999));
    }

    /** The codec's length is exact, so the log claims the record's bytes and no more: no aborted remainder, no copy. */
    @Test
    void eachTradeTakesExactlyTheLengthTheCodecClaims() throws Exception {
        List<Trade> trades = List.of(new Trade(1, "A", 1, 1), new Trade(Long.MAX_VALUE, "X".repeat(255), Integer.MIN_VALUE, -5));
        List<Long> positions = new ArrayList<>();
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(dir).build())) {
            for (Trade trade : trades) {
                positions.add(log.append(trade, TradeCodec.INSTANCE));
            }
            List<Trade> replayed = new ArrayList<>();
            log.replay(0, TradeCodec.INSTANCE, (position, trade) -> replayed.add(trade));
            assertEquals(trades, replayed);
            for (int i = 0; i < trades.size(); i++) {
                assertEquals(TradeCodec.INSTANCE.maxEncodedLength(trades.get(i)), log.readAt(positions.get(i)).length, trades.get(i).toString());
            }
        }
    }

    @Test
    void aSymbolTheCodecCannotWriteIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Trade(1, "", 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Trade(1, "X".repeat(256), 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Trade(1, "ÄCME", 1, 1));
    }
}
