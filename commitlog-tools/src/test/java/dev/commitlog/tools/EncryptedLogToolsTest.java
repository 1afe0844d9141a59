package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.config.SyncMode;
import dev.commitlog.crypto.KeyStoreKeyProvider;
import dev.commitlog.format.RecordDescriptor;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code verify}, {@code dump} and {@code stats} over a log the engine encrypted (AES-GCM, alone and
 * after LZ4 or zstd) with a {@link KeyStoreKeyProvider} over a PKCS12 file made here: with the
 * keystore they read every record; without it, or with one lacking the key, they stop naming the
 * key id and the option to give; every bad keystore option is one line, exit code 2, nothing changed.
 */
class EncryptedLogToolsTest {
    private static final int RECORDS = 300;
    private static final int KNOWN = 123;
    private static final String PASSWORD = "correct horse battery";
    private static final Pattern RECORD = Pattern.compile("position (\\d+)  length (\\d+)  frame \\d+  checksum ok");

    @TempDir
    Path dir;

    @TempDir
    Path keysDir;

    private final List<Long> positions = new ArrayList<>();
    /** How {@link #write} syncs: Batch (a section per record, one writer) unless a test says otherwise. */
    private SyncMode syncMode = SyncMode.BATCH;

    /** A PKCS12 file holding one random 256-bit AES key under each alias, protected by {@link #PASSWORD}; plus its password file. */
    private Path keystore(String name, String... aliases) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        SecureRandom random = new SecureRandom();
        for (String alias : aliases) {
            byte[] key = new byte[32];
            random.nextBytes(key);
            store.setEntry(alias, new KeyStore.SecretKeyEntry(new SecretKeySpec(key, "AES")),
                    new KeyStore.PasswordProtection(PASSWORD.toCharArray()));
        }
        Path file = keysDir.resolve(name);
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, PASSWORD.toCharArray());
        }
        return file;
    }

    /** The password as {@code echo "$PASSWORD" > file} leaves it: with a line end. */
    private Path passwordFile() throws Exception {
        return Files.writeString(keysDir.resolve("password"), PASSWORD + "\n");
    }

    static byte[] record(int i) {
        return ("{\"record\":" + i + ",\"text\":\"" + "secret payload ".repeat(20) + "\"}").getBytes(StandardCharsets.US_ASCII);
    }

    /** Writes {@link #RECORDS} records into {@link #dir} through the engine, encrypted with the keystore's keys. */
    private void write(Compression compression, Path keystore, String aliasPrefix) throws Exception {
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(syncMode).segmentSize(64 * 1024).compression(compression)
                .encryption(Encryption.AES_GCM).build();
        KeyStoreKeyProvider keys = KeyStoreKeyProvider.load(keystore, PASSWORD.toCharArray(), aliasPrefix);
        try (CommitLog log = CommitLog.open(config, CommitLogOptions.builder().noJmx().keyProvider(keys).build())) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] record = record(i);
                positions.add(log.append(record, 0, record.length));
            }
        }
        // The tool has something to decrypt: no record's text is on disk.
        byte[] text = "secret payload".getBytes(StandardCharsets.US_ASCII);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                assertFalse(contains(Files.readAllBytes(file), text), file + " holds plaintext");
            }
        }
    }

    private Path writeLz4Encrypted() throws Exception {
        Path keystore = keystore("keys.p12", "commitlog-1");
        write(Compression.LZ4, keystore, KeyStoreKeyProvider.DEFAULT_ALIAS_PREFIX);
        return keystore;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }

    @ParameterizedTest
    @EnumSource(value = Compression.class, names = {"NONE", "LZ4", "ZSTD"})
    void verifyDumpAndStatsReadEveryRecordWithTheKeystore(Compression compression) throws Exception {
        Path keystore = keystore("keys.p12", "commitlog-1");
        write(compression, keystore, KeyStoreKeyProvider.DEFAULT_ALIAS_PREFIX);
        Path password = passwordFile();

        ToolRun verify = ToolRun.of("verify", dir, "--keystore", keystore, "--keystore-password-file", password).succeeded(ExitCode.OK);
        assertTrue(verify.outLines().get(0).startsWith("OK: " + RECORDS + " records verified (records at positions " + positions.get(0)
                + " to " + positions.get(RECORDS - 1) + ")"), verify.out());

        ToolRun dump = ToolRun.of("dump", dir, "--keystore", keystore, "--keystore-password-file", password).succeeded(ExitCode.OK);
        List<Long> shown = new ArrayList<>();
        for (String line : dump.outLines()) {
            Matcher m = RECORD.matcher(line);
            if (m.matches()) {
                shown.add(Long.parseLong(m.group(1)));
                assertEquals(record(positions.indexOf(Long.parseLong(m.group(1)))).length, Integer.parseInt(m.group(2)), line);
            }
        }
        assertEquals(positions, shown);
        assertTrue(dump.out().contains(RECORDS + " records shown, 0 damaged frames met"), dump.out());

        ToolRun stats = ToolRun.of("stats", dir, "--keystore", keystore, "--keystore-password-file", password).succeeded(ExitCode.OK);
        assertTrue(stats.outLines().contains("records          " + RECORDS), stats.out());
        assertTrue(stats.outLines().contains("damaged frames   0"), stats.out());
    }

    @Test
    void dumpHexShowsTheDecryptedPayloadOfAKnownRecord() throws Exception {
        Path keystore = writeLz4Encrypted();
        ToolRun dump = ToolRun.of("dump", dir, "--from", positions.get(KNOWN), "--limit", 1, "--hex", "--keystore", keystore,
                "--keystore-password-file", passwordFile()).succeeded(ExitCode.OK);
        byte[] payload = record(KNOWN);
        assertTrue(dump.outLines().contains("position " + positions.get(KNOWN) + "  length " + payload.length + "  frame "
                + RecordDescriptor.alignedFrameLength(payload.length) + "  checksum ok"), dump.out());
        List<String> hex = dump.outLines().stream().filter(l -> l.startsWith("    ")).toList();
        assertEquals((payload.length + 15) / 16, hex.size(), dump.out());
        HexFormat format = HexFormat.of();
        for (int line = 0; line < hex.size(); line++) {
            StringBuilder expected = new StringBuilder(String.format("    %08x ", line * 16));
            for (int i = line * 16; i < Math.min(payload.length, line * 16 + 16); i++) {
                expected.append(i % 16 == 8 ? "  " : " ").append(format.toHexDigits(payload[i]));
            }
            assertTrue(hex.get(line).startsWith(expected.toString()), hex.get(line) + "\nexpected " + expected);
        }
        assertTrue(hex.get(0).endsWith("|{\"record\":123,\"t|"), hex.get(0));
    }

    @Test
    void thePasswordCanComeFromAnEnvironmentVariable() throws Exception {
        Path keystore = writeLz4Encrypted();
        ToolRun verify = ToolRun.withEnvironment(Map.of("CL_KEYSTORE_PASSWORD", PASSWORD), "verify", dir, "--keystore", keystore,
                "--keystore-password-env", "CL_KEYSTORE_PASSWORD").succeeded(ExitCode.OK);
        assertTrue(verify.outLines().get(0).startsWith("OK: " + RECORDS + " records verified"), verify.out());
    }

    @Test
    void anotherAliasPrefixIsGivenWithKeyAliasPrefix() throws Exception {
        Path keystore = keystore("keys.p12", "node7-log-1", "unrelated");
        write(Compression.LZ4, keystore, "node7-log-");
        Path password = passwordFile();
        ToolRun stats = ToolRun.of("stats", dir, "--keystore", keystore, "--keystore-password-file", password, "--key-alias-prefix",
                "node7-log-").succeeded(ExitCode.OK);
        assertTrue(stats.outLines().contains("records          " + RECORDS), stats.out());

        // Under the default prefix the keystore holds none of the log's keys: refused before reading.
        String line = ToolRun.of("stats", dir, "--keystore", keystore, "--keystore-password-file", password).oneErrorLine(ExitCode.USAGE);
        assertTrue(line.contains("no key under an alias commitlog-<id>") && line.contains("--key-alias-prefix commitlog-"), line);
    }

    @ParameterizedTest
    @ValueSource(strings = {"verify", "dump", "stats"})
    void withoutTheKeystoreEachStopsNamingTheKeyIdAndTheOption(String command) throws Exception {
        writeLz4Encrypted();
        Map<String, byte[]> before = TestLog.contents(dir);
        ToolRun run = ToolRun.of(command, dir);
        assertEquals(ExitCode.FAILED, run.exitCode(), run.out() + run.err());
        List<String> lines = run.err().lines().toList();
        assertEquals(1, lines.size(), run.err());
        String line = lines.get(0);
        assertTrue(line.startsWith("commitlog-tools " + command + ": commitlog-00000000000000000000.log, the section at file offset 64: "
                + "encrypted under key id 1, which the tool cannot read: no keystore was given: add --keystore FILE (a PKCS12 keystore "
                + "with entry commitlog-1)"), line);
        assertFalse(run.err().contains("\tat "), run.err());
        assertUnchanged(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"verify", "dump", "stats"})
    void aKeystoreWithoutTheKeyStopsNamingTheKeyIdAndWhatItHolds(String command) throws Exception {
        writeLz4Encrypted();
        Path other = keystore("other.p12", "commitlog-2", "commitlog-3");
        Map<String, byte[]> before = TestLog.contents(dir);
        ToolRun run = ToolRun.of(command, dir, "--keystore", other, "--keystore-password-file", passwordFile());
        assertEquals(ExitCode.FAILED, run.exitCode(), run.out() + run.err());
        List<String> lines = run.err().lines().toList();
        assertEquals(1, lines.size(), run.err());
        assertTrue(lines.get(0).contains(": encrypted under key id 1, which the tool cannot read: keystore " + other + " has no entry "
                + "commitlog-1 (it holds key ids [2, 3] under commitlog-<id>): give --keystore a keystore holding key id 1"), lines.get(0));
        assertUnchanged(before);
    }

    @Test
    void aPlainLogReadsWithOrWithoutKeyOptions() throws Exception {
        Path keystore = keystore("keys.p12", "commitlog-1");
        TestLog log = TestLog.write(dir);
        ToolRun verify = ToolRun.of("verify", dir, "--keystore", keystore, "--keystore-password-file", passwordFile()).succeeded(ExitCode.OK);
        assertTrue(verify.outLines().get(0).startsWith("OK: " + TestLog.RECORDS + " records verified"), verify.out());
        assertEquals(TestLog.RECORDS, log.positions.size());
    }

    // ---- refusals: one line, exit code 2, nothing read or changed

    private String refused(Map<String, String> environment, Object... args) throws Exception {
        Map<String, byte[]> before = TestLog.contents(dir);
        String line = ToolRun.withEnvironment(environment, args).oneErrorLine(ExitCode.USAGE);
        assertUnchanged(before);
        return line;
    }

    private void assertUnchanged(Map<String, byte[]> before) throws Exception {
        Map<String, byte[]> after = TestLog.contents(dir);
        assertEquals(before.keySet(), after.keySet());
        for (String file : before.keySet()) {
            assertArrayEquals(before.get(file), after.get(file), file);
        }
    }

    @Test
    void aMissingKeystoreIsRefused() throws Exception {
        writeLz4Encrypted();
        Path missing = keysDir.resolve("nope.p12");
        String line = refused(Map.of(), "verify", dir, "--keystore", missing, "--keystore-password-file", passwordFile());
        assertEquals("commitlog-tools verify: --keystore " + missing + ": no such file (see 'commitlog-tools verify --help')", line);
    }

    @Test
    void aWrongPasswordIsRefused() throws Exception {
        Path keystore = writeLz4Encrypted();
        Path wrong = Files.writeString(keysDir.resolve("wrong"), "not the password\n");
        String line = refused(Map.of(), "dump", dir, "--keystore", keystore, "--keystore-password-file", wrong);
        assertEquals("commitlog-tools dump: --keystore " + keystore + ": wrong password (the keystore's integrity check failed with it) "
                + "(see 'commitlog-tools dump --help')", line);
    }

    @Test
    void aFileThatIsNotAKeystoreIsRefused() throws Exception {
        writeLz4Encrypted();
        Path text = Files.writeString(keysDir.resolve("keys.txt"), "commitlog-1=00112233\n");
        String line = refused(Map.of(), "stats", dir, "--keystore", text, "--keystore-password-file", passwordFile());
        assertEquals("commitlog-tools stats: --keystore " + text + " is not a PKCS12 keystore (it does not parse as one) "
                + "(see 'commitlog-tools stats --help')", line);
        Path empty = Files.createFile(keysDir.resolve("empty.p12"));
        line = refused(Map.of(), "stats", dir, "--keystore", empty, "--keystore-password-file", passwordFile());
        assertTrue(line.startsWith("commitlog-tools stats: --keystore " + empty + " is empty; expected a PKCS12 keystore"), line);
        line = refused(Map.of(), "stats", dir, "--keystore", keysDir, "--keystore-password-file", passwordFile());
        assertTrue(line.startsWith("commitlog-tools stats: --keystore " + keysDir + " is not a regular file"), line);
    }

    @Test
    void anUnsetOrEmptyEnvironmentVariableIsRefused() throws Exception {
        Path keystore = writeLz4Encrypted();
        String line = refused(Map.of(), "verify", dir, "--keystore", keystore, "--keystore-password-env", "CL_KEYSTORE_PASSWORD");
        assertTrue(line.startsWith("commitlog-tools verify: --keystore-password-env CL_KEYSTORE_PASSWORD: no such environment variable is set"), line);
        line = refused(Map.of("CL_KEYSTORE_PASSWORD", ""), "verify", dir, "--keystore", keystore, "--keystore-password-env",
                "CL_KEYSTORE_PASSWORD");
        assertTrue(line.contains("--keystore-password-env CL_KEYSTORE_PASSWORD: the variable is empty"), line);
    }

    @Test
    void aPasswordWithoutAKeystoreIsRefused() throws Exception {
        writeLz4Encrypted();
        Path password = passwordFile();
        String line = refused(Map.of(), "dump", dir, "--keystore-password-file", password);
        assertEquals("commitlog-tools dump: --keystore-password-file is given without --keystore FILE: it says how to read a keystore, "
                + "and none is named (see 'commitlog-tools dump --help')", line);
        line = refused(Map.of("P", PASSWORD), "verify", dir, "--keystore-password-env", "P");
        assertTrue(line.startsWith("commitlog-tools verify: --keystore-password-env is given without --keystore FILE"), line);
        line = refused(Map.of(), "stats", dir, "--key-alias-prefix", "commitlog-");
        assertTrue(line.startsWith("commitlog-tools stats: --key-alias-prefix is given without --keystore FILE"), line);
    }

    @Test
    void aKeystoreWithoutExactlyOnePasswordIsRefused() throws Exception {
        Path keystore = writeLz4Encrypted();
        String line = refused(Map.of(), "verify", dir, "--keystore", keystore);
        assertEquals("commitlog-tools verify: --keystore " + keystore + " needs its password: --keystore-password-file FILE or "
                + "--keystore-password-env VAR (never on the command line, where ps shows it) (see 'commitlog-tools verify --help')", line);
        line = refused(Map.of("P", PASSWORD), "verify", dir, "--keystore", keystore, "--keystore-password-file", passwordFile(),
                "--keystore-password-env", "P");
        assertTrue(line.contains("give the keystore's password once: --keystore-password-file or --keystore-password-env, not both"), line);
        // No option takes the password itself.
        line = refused(Map.of(), "verify", dir, "--keystore", keystore, "--keystore-password", PASSWORD);
        assertTrue(line.contains("Unknown options: '--keystore-password', '" + PASSWORD + "'"), line);
    }

    @Test
    void aBadPasswordFileIsRefused() throws Exception {
        Path keystore = writeLz4Encrypted();
        Path missing = keysDir.resolve("no-password");
        String line = refused(Map.of(), "verify", dir, "--keystore", keystore, "--keystore-password-file", missing);
        assertTrue(line.startsWith("commitlog-tools verify: --keystore-password-file " + missing + ": no such file"), line);
        Path empty = Files.writeString(keysDir.resolve("empty"), "");
        line = refused(Map.of(), "verify", dir, "--keystore", keystore, "--keystore-password-file", empty);
        assertTrue(line.startsWith("commitlog-tools verify: --keystore-password-file " + empty + " is empty"), line);
        Path large = Files.write(keysDir.resolve("large"), new byte[KeyOptions.MAX_PASSWORD_FILE_BYTES + 1]);
        line = refused(Map.of(), "verify", dir, "--keystore", keystore, "--keystore-password-file", large);
        assertTrue(line.contains(large + " holds 1025 bytes; a password file holds one line of at most 1024 bytes"), line);
        line = refused(Map.of(), "verify", dir, "--keystore", keystore, "--keystore-password-file", keystore);
        assertTrue(line.contains(keystore + ": its first line is not UTF-8 text"), line);
    }

    @Test
    void truncateAfterCutsAnEncryptedLogWithTheKeystoreAndRefusesWithoutIt() throws Exception {
        syncMode = SyncMode.PERIODIC; // flushes of many records: the cut falls inside a section
        Path keystore = writeLz4Encrypted();
        Path password = passwordFile();
        long cut = positions.get(KNOWN);
        Map<String, byte[]> before = TestLog.contents(dir);
        ToolRun refused = ToolRun.of("truncate-after", dir, cut);
        assertEquals(ExitCode.FAILED, refused.exitCode(), refused.out() + refused.err());
        assertTrue(refused.err().contains("encrypted under key id 1, which the tool cannot read: no keystore was given"), refused.err());
        assertUnchanged(before);

        ToolRun truncated = ToolRun.of("truncate-after", dir, cut, "--keystore", keystore, "--keystore-password-file", password,
                "--backup-dir", keysDir.resolve("backup")).succeeded(ExitCode.OK);
        assertTrue(truncated.out().contains("position " + cut + " and everything after it removed; " + KNOWN + " records before it kept"),
                truncated.out());
        ToolRun verify = ToolRun.of("verify", dir, "--strict", "--keystore", keystore, "--keystore-password-file", password)
                .succeeded(ExitCode.OK);
        assertTrue(verify.outLines().get(0).startsWith("OK: " + KNOWN + " records verified (records at positions " + positions.get(0)
                + " to " + positions.get(KNOWN - 1) + ")"), verify.out());
        byte[] text = "secret payload".getBytes(StandardCharsets.US_ASCII);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertFalse(contains(Files.readAllBytes(file), text), file + " holds plaintext after the cut");
            }
        }
    }
}
