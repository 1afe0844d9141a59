package dev.commitlog.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        assertEquals(CommitLogConfig.builder(config.directory()).build(), config);
        assertEquals(SyncMode.ADAPTIVE, config.syncMode(), "the shipped file keeps durable before acknowledged");
    }

    /** Relative, so it works from the repository root as shipped (resolved against the working directory). */
    @Test
    void shippedFileNamesARelativeDirectoryAndSaysWhereToPointItInProduction() throws IOException {
        String text = Files.readString(SHIPPED);
        assertTrue(text.contains("\ncommitlog_directory: data/commitlog\n"), "the shipped directory is relative");
        assertEquals(Path.of("data/commitlog").toAbsolutePath().normalize(), CommitLogConfig.load(SHIPPED).directory());
        assertTrue(text.contains("In production, set commitlog_directory to an\n# absolute path"), "says where to point it");
    }

    /** Segments are deleted once discarded (SegmentRetention), never recycled: the file must not say otherwise. */
    @Test
    void shippedFileSaysSegmentsAreDeletedNotRecycled() throws IOException {
        String text = Files.readString(SHIPPED);
        assertFalse(text.contains("recycled"), "segments are deleted, not recycled");
        assertTrue(text.contains("deleted whole once\n# discardUpTo has passed their end"));
    }

    @Test
    void defaultModeInCodeIsAdaptive() {
        assertEquals(SyncMode.ADAPTIVE, CommitLogConfig.builder(Path.of("d")).build().syncMode());
    }

    @Test
    void shippedFileDocumentsEveryKey() throws IOException {
        String text = Files.readString(SHIPPED);
        for (ConfigKey key : ConfigKey.values()) {
            // Each key appears as a setting, commented out when its default is derived or its mode is not the default;
            // a key the engine does not act on yet is not offered to operators at all.
            boolean documented = text.contains("\n" + key + ": ") || text.contains("\n# " + key + ": ");
            assertEquals(key.actedOn, documented, key + (key.actedOn ? " is not documented" : " is documented but not acted on yet"));
        }
    }

    @Test
    void shippedFileLoadsInEveryModeOnceThatModesKeysAreUncommented() throws IOException {
        String text = Files.readString(SHIPPED);
        assertEquals(SyncMode.BATCH, CommitLogConfig.parse(text.replace("commitlog_sync: adaptive", "commitlog_sync: batch")).syncMode());
        String group = text.replace("commitlog_sync: adaptive", "commitlog_sync: group")
                .replace("# commitlog_sync_group_window: 10ms", "commitlog_sync_group_window: 10ms");
        assertEquals(SyncMode.GROUP, CommitLogConfig.parse(group).syncMode());
        String periodic = text.replace("commitlog_sync: adaptive", "commitlog_sync: periodic")
                .replace("# commitlog_sync_period: 10000ms", "commitlog_sync_period: 10000ms");
        assertEquals(SyncMode.PERIODIC, CommitLogConfig.parse(periodic).syncMode());
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
