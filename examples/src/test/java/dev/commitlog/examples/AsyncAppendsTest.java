package dev.commitlog.examples;

import static org.junit.jupiter.api.Assertions.*;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AsyncAppendsTest {
    @TempDir
    Path dir;

    @Test
    void everyAsyncAppendIsAcknowledgedInOrderAndReplayed() throws Exception {
        AsyncAppends.Acknowledged result = AsyncAppends.run(dir, new PrintStream(OutputStream.nullOutputStream()));
        assertEquals(AsyncAppends.CALLBACK_APPENDS, result.durable());
        assertEquals(0, result.failed());
        assertTrue(result.inOrder(), "the callback runs in position order");
        List<Long> positions = result.futurePositions();
        assertEquals(AsyncAppends.FUTURE_APPENDS, positions.size());
        for (int i = 1; i < positions.size(); i++) {
            assertTrue(positions.get(i) > positions.get(i - 1), "futures complete with ascending positions: " + positions);
        }
        assertEquals(AsyncAppends.CALLBACK_APPENDS + AsyncAppends.FUTURE_APPENDS, result.replayed());
    }
}
