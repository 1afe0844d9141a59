package dev.commitlog.bench.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.CommitLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A baseline engine is another copy of the engine's classes, in a loader of its own, driven through
 * the public API. Here the baseline is this build's own core (its classes directory or jar), so the
 * test needs no second build.
 */
class BaselineContenderTest {
    @TempDir
    Path dir;

    @Test
    void opensAppendsCountsAndClosesTheBaselinesOwnEngine() throws Exception {
        Path core = Path.of(CommitLog.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        BaselineContender contender = new BaselineContender(core, "batch", null);
        assertEquals("baseline-batch", contender.label());
        assertNotSame(CommitLog.class, contender.loader().loadClass(CommitLog.class.getName()), "the engine's classes are the baseline's own");
        assertTrue(contender.durable());
        Path cell = Files.createDirectories(dir.resolve("cell"));
        try (SystemUnderTest log = contender.open(cell, 100)) {
            Appender appender = log.newAppender(0);
            for (int i = 0; i < 10; i++) {
                appender.append(new byte[100]);
            }
            FlushCounters counted = log.flushCounters();
            assertEquals(10, counted.records(), "every batch append is flushed before it returns");
            assertTrue(counted.flushes() >= 1 && counted.flushes() <= 10, counted.toString());
        }
        assertEquals("baseline-group-2ms", new BaselineContender(core, "group", Duration.ofMillis(2)).label());
    }

    @Test
    void aMissingBaselineIsNamed() {
        IOException e = assertThrows(IOException.class, () -> new BaselineContender(dir.resolve("no.jar"), "batch", null));
        assertTrue(e.getMessage().contains("no.jar"), e.getMessage());
    }
}
