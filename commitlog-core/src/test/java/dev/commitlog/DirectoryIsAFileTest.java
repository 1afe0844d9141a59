package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A {@code commitlog_directory} that is a regular file (or lies under one) is refused by name, and left as it was. */
class DirectoryIsAFileTest {
    @TempDir
    Path dir;

    @Test
    void aRegularFileIsNotADirectoryAndTheKeyIsNamed() throws Exception {
        Path file = Files.writeString(dir.resolve("log"), "not a log");
        FileSystemException e = assertThrows(FileSystemException.class,
                () -> CommitLog.open(CommitLogConfig.builder(file).build()).close());
        assertEquals(file + ": not a directory (commitlog_directory); point commitlog_directory at a directory, or at a path "
                + "that does not exist yet (it is created)", e.getMessage());
        assertEquals("not a log", Files.readString(file));
        assertFalse(Files.exists(dir.resolve("commitlog.lock")));
    }

    @Test
    void aRegularFileAmongTheParentsIsNamed() throws Exception {
        Path file = Files.writeString(dir.resolve("data"), "x");
        Path logDir = file.resolve("commitlog");
        FileSystemException e = assertThrows(FileSystemException.class,
                () -> CommitLog.open(CommitLogConfig.builder(logDir).build()).close());
        assertTrue(e.getMessage().startsWith(file + ": not a directory, so commitlog_directory " + logDir), e.getMessage());
        assertEquals("x", Files.readString(file));
    }
}
