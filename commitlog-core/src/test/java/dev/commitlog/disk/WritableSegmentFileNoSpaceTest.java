package dev.commitlog.disk;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.commitlog.io.NoSpaceLeftException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real ENOSPC from {@code pwrite}: the production file's flush writes to {@code /dev/full}, whose
 * every write fails with "No space left on device", and must report it as the retryable
 * {@link NoSpaceLeftException}, having attempted no sync.
 */
class WritableSegmentFileNoSpaceTest {
    @TempDir
    Path dir;

    @Test
    void aWriteThatFindsNoSpaceIsReportedAsRetryable() throws IOException {
        Path full = Path.of("/dev/full");
        assumeTrue(Files.isWritable(full), "needs /dev/full");
        Path segment = dir.resolve("segment");
        ByteBuffer buffer = new WriterMemory().take(8192);
        buffer.put(100, (byte) 1);
        FileChannel device = FileChannel.open(full, StandardOpenOption.WRITE);
        WritableSegmentFile file = new WritableSegmentFile(segment, buffer, 101, device, new WriterMemory());
        try {
            NoSpaceLeftException e = assertThrows(NoSpaceLeftException.class, () -> file.flushHeaderAndRange(64, 64, 4096));
            assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
            assertTrue(e.getMessage().contains(segment.toString()), e.getMessage());
            assertEquals(1, buffer.get(100), "the bytes are still in the writer's memory for the retry");
        } finally {
            file.close();
        }
    }

    @Test
    void onlyAFullDeviceIsRetryable() {
        assertTrue(WritableSegmentFile.isNoSpace(new IOException("No space left on device")));
        assertTrue(WritableSegmentFile.isNoSpace(new IOException("Disk quota exceeded")));
        assertFalse(WritableSegmentFile.isNoSpace(new IOException("Input/output error")));
        assertFalse(WritableSegmentFile.isNoSpace(new IOException((String) null)));
    }
}
