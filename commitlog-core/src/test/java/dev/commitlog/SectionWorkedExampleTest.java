package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.section.SectionDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/format.md's worked examples of sections, byte for byte where the bytes are fixed: a new log
 * (32 MiB segments) gets one 100-byte record, "hello " repeated, and is closed; the first section
 * is at offset 64 of segment 0. With LZ4 every byte is fixed; with AES-GCM the nonce (random) and so
 * the body, the tag and the CRCs vary, and the test checks the other fields.
 */
class SectionWorkedExampleTest {
    static final byte[] RECORD = "hello ".repeat(17).substring(0, 100).getBytes(StandardCharsets.US_ASCII);
    /** The LZ4 section, header to padding, as docs/format.md shows it. */
    static final String LZ4_SECTION = "434c5343010000004000000000000000700000001800000000000000000000000000000000000000"
            + "919acc833c565e4eef6c00000068499eab68656c6c6f2006004a506c00000000";

    @TempDir
    Path dir;

    private ByteBuffer writeOne(Compression compression, Encryption encryption) throws Exception {
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).compression(compression).encryption(encryption)
                .build();
        CommitLogOptions.Builder options = CommitLogOptions.builder().noJmx();
        if (encryption == Encryption.AES_GCM) {
            options.keyProvider(SectionedLogs.keys(1));
        }
        try (CommitLog log = CommitLog.open(config, options.build())) {
            assertEquals(64, log.append(RECORD, 0, RECORD.length), "the record's log position");
        }
        return ByteBuffer.wrap(Files.readAllBytes(dir.resolve(SegmentDescriptor.fileName(0)))).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void anLz4Section() throws Exception {
        ByteBuffer file = writeOne(Compression.LZ4, Encryption.NONE);
        assertEquals(SegmentDescriptor.FORMAT_VERSION_SECTIONS, file.getInt(SegmentDescriptor.VERSION_OFFSET));
        assertEquals(176, file.getLong(SegmentDescriptor.DURABLE_MARK_OFFSET), "the exact mark: the end of the 112-byte frame");
        int at = 64;
        assertEquals(SectionDescriptor.MAGIC, file.getInt(at));
        assertEquals(SectionDescriptor.CODEC_LZ4, file.get(at + SectionDescriptor.CODEC_OFFSET));
        assertEquals(SectionDescriptor.CIPHER_NONE, file.get(at + SectionDescriptor.CIPHER_OFFSET));
        assertEquals(64, file.getLong(at + SectionDescriptor.LOGICAL_START_OFFSET));
        assertEquals(112, file.getInt(at + SectionDescriptor.LOGICAL_LENGTH_OFFSET));
        int stored = file.getInt(at + SectionDescriptor.STORED_LENGTH_OFFSET);
        assertTrue(stored < 112, "compressed: " + stored);
        int length = (int) SectionDescriptor.sectionLength(stored);
        String hex = HexFormat.of().formatHex(file.array(), at, at + length);
        System.out.println("LZ4 section (" + length + " bytes, stored " + stored + "): " + hex);
        assertEquals(0, file.getLong(at + length), "the zero word after it");
        assertEquals(LZ4_SECTION, hex);
    }

    @Test
    void anEncryptedSection() throws Exception {
        ByteBuffer file = writeOne(Compression.NONE, Encryption.AES_GCM);
        int at = 64;
        assertEquals(SectionDescriptor.MAGIC, file.getInt(at));
        assertEquals(SectionDescriptor.CODEC_NONE, file.get(at + SectionDescriptor.CODEC_OFFSET));
        assertEquals(SectionDescriptor.CIPHER_AES_256_GCM, file.get(at + SectionDescriptor.CIPHER_OFFSET));
        assertEquals(64, file.getLong(at + SectionDescriptor.LOGICAL_START_OFFSET));
        assertEquals(112, file.getInt(at + SectionDescriptor.LOGICAL_LENGTH_OFFSET));
        assertEquals(128, file.getInt(at + SectionDescriptor.STORED_LENGTH_OFFSET), "the frame and the 16-byte tag");
        assertEquals(1, file.getInt(at + SectionDescriptor.KEY_ID_OFFSET));
        assertEquals(0, file.getInt(at + SectionDescriptor.NONCE_OFFSET + 8), "the nonce's counter: the segment's first section");
        System.out.println("AES-GCM section (176 bytes): " + HexFormat.of().formatHex(file.array(), at, at + 176));
        assertEquals(0, file.getLong(at + 176), "the zero word after it");
    }
}
