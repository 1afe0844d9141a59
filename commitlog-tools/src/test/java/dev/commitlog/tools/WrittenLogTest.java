package dev.commitlog.tools;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Tests of a read-only command: each starts from a fresh {@link TestLog} in {@link #dir}. */
abstract class WrittenLogTest {
    @TempDir
    Path dir;
    TestLog log;

    @BeforeEach
    void writeLog() throws Exception {
        log = TestLog.write(dir);
    }
}
