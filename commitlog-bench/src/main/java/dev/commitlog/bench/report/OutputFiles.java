package dev.commitlog.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Output paths may name directories that do not exist yet (the default is ./bench-out/). */
public final class OutputFiles {

    private OutputFiles() {
    }

    /** Creates the file's parent directories; returns the absolute path to write. */
    public static Path prepare(Path file) throws IOException {
        Path absolute = file.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
        return absolute;
    }
}
