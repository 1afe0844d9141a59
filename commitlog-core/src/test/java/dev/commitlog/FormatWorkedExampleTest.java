package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.segment.SegmentDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps docs/format.md honest: its worked example (one record "hello" in a new log with 32 MiB
 * segments) must be byte for byte what the engine writes.
 */
class FormatWorkedExampleTest {
    private static final Pattern DUMP_LINE = Pattern.compile("^0x([0-9a-f]{4})  ((?:[0-9a-f]{2}(?: {1,2}(?=[0-9a-f]{2}\\b))?)+)\\s{3,}\\S.*$");

    @TempDir
    Path dir;

    @Test
    void theWorkedExampleInFormatMdIsWhatTheEngineWrites() throws IOException {
        long position;
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).build())) {
            byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
            position = log.append(hello, 0, hello.length);
        }
        assertEquals(64, position);
        byte[] written = Arrays.copyOf(Files.readAllBytes(dir.resolve(SegmentDescriptor.fileName(0))), 0x50);
        assertEquals(32 << 20, Files.size(dir.resolve(SegmentDescriptor.fileName(0))));
        assertArrayEquals(documentedBytes(0x50), written, "docs/format.md worked example vs the engine's bytes");
    }

    /** The hex dump in the worked example, as bytes (offsets must be contiguous). */
    private static byte[] documentedBytes(int length) throws IOException {
        byte[] bytes = new byte[length];
        int filled = 0;
        for (String line : Files.readAllLines(Path.of("../docs/format.md"))) {
            Matcher m = DUMP_LINE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            int offset = Integer.parseInt(m.group(1), 16);
            if (offset >= length) {
                continue;
            }
            assertEquals(filled, offset, "dump lines are contiguous at 0x" + Integer.toHexString(offset));
            byte[] row = HexFormat.of().parseHex(m.group(2).replace(" ", ""));
            System.arraycopy(row, 0, bytes, offset, Math.min(row.length, length - offset));
            filled = offset + row.length;
        }
        assertEquals(length, filled, "the worked example documents the first " + length + " bytes");
        return bytes;
    }
}
