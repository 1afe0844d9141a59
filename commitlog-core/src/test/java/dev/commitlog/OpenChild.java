package dev.commitlog;

import dev.commitlog.config.CommitLogConfig;
import java.nio.file.Path;

/**
 * Child JVM for {@link JvmFlagsTest}: opens a log in the directory given, appends a record and
 * prints "opened"; or prints the exception's class and message on one line ("failed: ...").
 */
public final class OpenChild {
    private OpenChild() {
    }

    public static void main(String[] args) {
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(Path.of(args[0])).build())) {
            log.append(new byte[8], 0, 8);
            System.out.println("opened");
        } catch (Throwable e) {
            System.out.println("failed: " + e.getClass().getName() + ": " + e.getMessage());
        }
    }
}
