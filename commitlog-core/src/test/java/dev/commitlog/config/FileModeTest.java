package dev.commitlog.config;

import static java.nio.file.attribute.PosixFilePermission.GROUP_READ;
import static java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE;
import static java.nio.file.attribute.PosixFilePermission.OTHERS_READ;
import static java.nio.file.attribute.PosixFilePermission.OWNER_READ;
import static java.nio.file.attribute.PosixFilePermission.OWNER_WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FileModeTest {
    private static final ConfigKey KEY = ConfigKey.COMMITLOG_FILE_MODE;

    @ParameterizedTest
    @ValueSource(strings = {"0600", "600", "0o600", " 0600 "})
    void acceptsTheSpellingsChmodAndYamlUse(String text) {
        assertEquals(EnumSet.of(OWNER_READ, OWNER_WRITE), FileMode.parse(KEY, text));
    }

    @Test
    void mapsEveryBitToItsPermission() {
        assertEquals(EnumSet.of(OWNER_READ, OWNER_WRITE, GROUP_READ, OTHERS_READ, OTHERS_EXECUTE), FileMode.parse(KEY, "0645"));
        assertEquals(PosixFilePermissions.fromString("rwxr-x-w-"), FileMode.parse(KEY, "0752"));
        assertEquals(Set.of(), FileMode.parse(KEY, "0000"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0600", "0644", "0777", "0000", "0640", "0001"})
    void formatRoundTrips(String text) {
        assertEquals(text, FileMode.format(FileMode.parse(KEY, text)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"rw-------", "0800", "60", "06000", "4755", "0x180", "", "384"})
    void rejectsWhatIsNotAnOctalMode(String text) {
        ConfigException e = assertThrows(ConfigException.class, () -> FileMode.parse(KEY, text));
        assertTrue(e.getMessage().startsWith("commitlog_file_mode: '" + text + "' is not a file mode"), e.getMessage());
        assertTrue(e.getMessage().contains("(e.g. \"0600\")"), e.getMessage());
    }
}
