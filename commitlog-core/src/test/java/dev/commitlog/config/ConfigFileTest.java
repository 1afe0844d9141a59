package dev.commitlog.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code conf/commitlog.yaml} and {@link CommitLogConfig#load(Path)}. */
class ConfigFileTest {
    /** Tests run in the module directory; the shipped file is at the repository root. */
    private static final Path SHIPPED = Path.of("../conf/commitlog.yaml");

    @Test
    void shippedFileLoadsWithTheDocumentedDefaults() throws IOException {
        CommitLogConfig config = CommitLogConfig.load(SHIPPED);
        assertEquals(Path.of("/var/lib/commitlog"), config.directory());
        assertEquals(CommitLogConfig.builder(config.directory()).build(), config);
    }

    @Test
    void shippedFileDocumentsEveryKey() throws IOException {
        String text = Files.readString(SHIPPED);
        for (ConfigKey key : ConfigKey.values()) {
            // Each key appears as a setting, commented out when its default is derived or its mode is not the default.
            assertTrue(text.contains("\n" + key + ": ") || text.contains("\n# " + key + ": "), key + " is not documented");
        }
    }

    @Test
    void shippedFileStillLoadsInEveryModeOnceTheOtherModesKeysAreCommentedOut() throws IOException {
        String text = Files.readString(SHIPPED).replace("\ncommitlog_sync_period:", "\n# commitlog_sync_period:");
        assertEquals(SyncMode.BATCH, CommitLogConfig.parse(text.replace("commitlog_sync: periodic", "commitlog_sync: batch")).syncMode());
        String group = text.replace("commitlog_sync: periodic", "commitlog_sync: group")
                .replace("# commitlog_sync_group_window: 10ms", "commitlog_sync_group_window: 10ms");
        assertEquals(SyncMode.GROUP, CommitLogConfig.parse(group).syncMode());
    }

    @Test
    void loadNamesTheFileAndLineInContentErrors(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("commitlog.yaml");
        Files.writeString(file, "commitlog_directory: /a\ncommitlog_sync: sometimes\n");
        ConfigException e = assertThrows(ConfigException.class, () -> CommitLogConfig.load(file));
        assertTrue(e.getMessage().startsWith(file + ":2: commitlog_sync: 'sometimes' is not one of"), e.getMessage());
        assertEquals("commitlog_sync", e.key());
        assertEquals("sometimes", e.value());
    }

    @Test
    void loadNamesTheFileInDocumentErrors(@TempDir Path dir) throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.yaml"), "");
        ConfigException e = assertThrows(ConfigException.class, () -> CommitLogConfig.load(empty));
        assertTrue(e.getMessage().startsWith(empty + ": is empty"), e.getMessage());
        assertNull(e.key());

        Path broken = Files.writeString(dir.resolve("broken.yaml"), "commitlog_directory: [\n");
        e = assertThrows(ConfigException.class, () -> CommitLogConfig.load(broken));
        assertTrue(e.getMessage().startsWith(broken + ": is not valid YAML"), e.getMessage());
    }

    @Test
    void loadNamesTheFileWhenTheDirectoryIsMissing(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("c.yaml"), "commitlog_sync: batch\n");
        ConfigException e = assertThrows(ConfigException.class, () -> CommitLogConfig.load(file));
        assertTrue(e.getMessage().startsWith(file + ": commitlog_directory: is required"), e.getMessage());
    }

    @Test
    void missingFileIsAnIoErrorNamingThePath(@TempDir Path dir) {
        Path missing = dir.resolve("nope.yaml");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> CommitLogConfig.load(missing));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    void directoryInsteadOfFileIsAnIoErrorNamingThePath(@TempDir Path dir) {
        IOException e = assertThrows(IOException.class, () -> CommitLogConfig.load(dir));
        assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
    }

    @Test
    void nonUtf8FileIsAContentError(@TempDir Path dir) throws IOException {
        Path file = Files.write(dir.resolve("latin1.yaml"), new byte[] {'a', ':', ' ', (byte) 0xE9, '\n'});
        ConfigException e = assertThrows(ConfigException.class, () -> CommitLogConfig.load(file));
        assertTrue(e.getMessage().startsWith(file + ": is not UTF-8 text"), e.getMessage());
    }
}
