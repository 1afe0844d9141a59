package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.FrameChecksum;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.segment.SegmentHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * segments, then a clean close) must be byte for byte what the engine writes, and the file before
 * the close must differ only in the durable mark the text gives for it.
 */
class FormatWorkedExampleTest {
    private static final Pattern DUMP_LINE = Pattern.compile("^0x([0-9a-f]{4})  ((?:[0-9a-f]{2}(?: {1,2}(?=[0-9a-f]{2}\\b))?)+)\\s{3,}\\S.*$");

    private static final Path FORMAT_MD = Path.of("../docs/format.md");

    @TempDir
    Path dir;

    @Test
    void theWorkedExampleInFormatMdIsWhatTheEngineWrites() throws IOException {
        long position;
        Path segment = dir.resolve(SegmentDescriptor.fileName(0));
        byte[] beforeClose;
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).build())) {
            byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
            position = log.append(hello, 0, hello.length);
            beforeClose = Arrays.copyOf(Files.readAllBytes(segment), 0x50); // what was flushed (the mapping is private)
        }
        assertEquals(64, position);
        byte[] written = Arrays.copyOf(Files.readAllBytes(segment), 0x50);
        assertEquals(32 << 20, Files.size(segment));
        byte[] documented = documentedBytes(0x50);
        assertArrayEquals(documented, written, "docs/format.md worked example vs the engine's bytes");

        // The text: "Until the close, the mark read 64 (`40 00 00 00 00 00 00 00`, CRC 0x587051d8)".
        int markCrc = SegmentHeader.durableMarkCrc(0, 64);
        String text = Files.readString(FORMAT_MD);
        assertTrue(text.contains(String.format("Until the close, the mark read 64 (`40 00 00 00 00 00 00 00`, CRC 0x%08x)", markCrc)),
                "docs/format.md gives the mark before the close, with its CRC 0x" + Integer.toHexString(markCrc));
        // The reused file: "header CRC32C 0x8b676a92" and "0x66b9c059 for \"hello\"".
        ByteBuffer reused = SegmentHeader.encode(7, 7L * (32 << 20), 32 << 20, 1).order(ByteOrder.LITTLE_ENDIAN);
        int reusedHeaderCrc = reused.getInt(SegmentDescriptor.HEADER_CRC_OFFSET);
        assertTrue(text.contains(String.format("header CRC32C 0x%08x", reusedHeaderCrc)), "the reused header's CRC");
        int reusedHello = new FrameChecksum().forSegment(2, 1).begin(7L * (32 << 20) + 64, 13).update(hello(), 0, 5).value();
        assertTrue(text.contains(String.format("0x%08x for \"hello\"", reusedHello)), "the reused file's CRC of hello");
        ByteBuffer expected = ByteBuffer.wrap(documented.clone()).order(ByteOrder.LITTLE_ENDIAN);
        expected.putLong(SegmentDescriptor.DURABLE_MARK_OFFSET, 64).putInt(SegmentDescriptor.DURABLE_MARK_CRC_OFFSET, markCrc);
        assertArrayEquals(expected.array(), beforeClose, "before the close only the mark differs: 64, durable before the append's flush");
    }

    private static byte[] hello() {
        return "hello".getBytes(StandardCharsets.US_ASCII);
    }

    /** The first hex dump in the worked example, as bytes (offsets must be contiguous from 0). */
    private static byte[] documentedBytes(int length) throws IOException {
        byte[] bytes = new byte[length];
        int filled = 0;
        for (String line : Files.readAllLines(FORMAT_MD)) {
            if (filled >= length) {
                break; // later dumps (the reused file) are checked by the values they quote
            }
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
