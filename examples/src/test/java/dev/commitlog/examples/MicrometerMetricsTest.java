package dev.commitlog.examples;

import static org.junit.jupiter.api.Assertions.*;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MicrometerMetricsTest {
    @TempDir
    Path dir;

    @Test
    void theRegistryHoldsTheCommitLogMetersWithTheAppendsCounted() throws Exception {
        MicrometerMetrics.Published result = MicrometerMetrics.run(dir, new PrintStream(OutputStream.nullOutputStream()));
        for (String name : new String[] {"commitlog.appends.completed", "commitlog.records.flushed", "commitlog.flushes",
                "commitlog.durable.position", "commitlog.append.latency", "commitlog.flush.latency"}) {
            assertTrue(result.meterNames().contains(name), name + " in " + result.meterNames());
        }
        assertTrue(result.meterNames().stream().allMatch(name -> name.startsWith("commitlog.")), result.meterNames().toString());
        assertEquals(MicrometerMetrics.APPENDS, result.appendsCompleted());
        assertEquals(MicrometerMetrics.APPENDS, result.recordsFlushed());
        assertTrue(result.flushes() > 0 && result.flushes() <= MicrometerMetrics.APPENDS, "flushes " + result.flushes());
        assertTrue(result.durablePosition() >= MicrometerMetrics.APPENDS * 100.0, "durable position " + result.durablePosition());
    }
}
