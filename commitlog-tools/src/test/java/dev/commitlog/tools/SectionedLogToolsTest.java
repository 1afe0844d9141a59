package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.config.SyncMode;
import dev.commitlog.crypto.KeyProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool over compressed and encrypted logs (segment format version 3): {@code verify},
 * {@code dump} and {@code stats} read a compressed log as they read a plain one; an encrypted one
 * stops with one line naming the key id the tool does not have; {@code truncate-after} cuts a
 * compressed log inside a section, after which it verifies under {@code --strict}.
 */
class SectionedLogToolsTest {
    private static final int RECORDS = 300;

    @TempDir
    Path dir;

    private void write(Compression compression, Encryption encryption) throws Exception {
        write(compression, encryption, SyncMode.BATCH);
    }

    /** Writes {@link #RECORDS} records; returns their positions. */
    private List<Long> write(Compression compression, Encryption encryption, SyncMode mode) throws Exception {
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(mode).segmentSize(64 * 1024).compression(compression)
                .encryption(encryption).build();
        CommitLogOptions.Builder options = CommitLogOptions.builder().noJmx();
        if (encryption == Encryption.AES_GCM) {
            options.keyProvider(new KeyProvider() {
                @Override
                public int currentKeyId() {
                    return 1;
                }

                @Override
                public SecretKey key(int keyId) {
                    return keyId == 1 ? new SecretKeySpec(new byte[32], "AES") : null;
                }
            });
        }
        List<Long> positions = new ArrayList<>();
        try (CommitLog log = CommitLog.open(config, options.build())) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] record = ("{\"record\":" + i + ",\"text\":\"" + "compressible ".repeat(30) + "\"}").getBytes(StandardCharsets.US_ASCII);
                positions.add(log.append(record, 0, record.length));
            }
        }
        return positions;
    }

    @Test
    void verifyDumpAndStatsReadACompressedLog() throws Exception {
        write(Compression.LZ4, Encryption.NONE);
        ToolRun verify = ToolRun.of("verify", dir).succeeded(ExitCode.OK);
        assertTrue(verify.outLines().get(0).startsWith("OK: " + RECORDS + " records verified"), verify.out());
        ToolRun dump = ToolRun.of("dump", dir).succeeded(ExitCode.OK);
        assertTrue(dump.out().contains(RECORDS + " records shown, 0 damaged frames met"), dump.out());
        ToolRun stats = ToolRun.of("stats", dir).succeeded(ExitCode.OK);
        assertTrue(stats.out().contains(Integer.toString(RECORDS)), stats.out());
    }

    @Test
    void anEncryptedLogStopsNamingTheKeyId() throws Exception {
        write(Compression.NONE, Encryption.AES_GCM);
        ToolRun verify = ToolRun.of("verify", dir);
        assertNotEquals(ExitCode.OK, verify.exitCode(), verify.out() + verify.err());
        assertTrue((verify.out() + verify.err()).contains("key id 1"), verify.out() + verify.err());
    }

    @Test
    void truncateAfterCutsACompressedLogInsideASection() throws Exception {
        List<Long> positions = write(Compression.LZ4, Encryption.NONE, SyncMode.PERIODIC); // flushes of many records
        long cut = positions.get(RECORDS / 2);
        ToolRun truncated = ToolRun.of("truncate-after", dir, cut, "--backup-dir", dir.resolveSibling(dir.getFileName() + "-backup"))
                .succeeded(ExitCode.OK);
        assertTrue(truncated.out().contains(RECORDS / 2 + " records before it kept"), truncated.out());
        ToolRun verify = ToolRun.of("verify", dir, "--strict").succeeded(ExitCode.OK);
        assertTrue(verify.outLines().get(0).startsWith("OK: " + RECORDS / 2 + " records verified (records at positions "
                + positions.get(0) + " to " + positions.get(RECORDS / 2 - 1) + ")"), verify.out());
    }
}
