package dev.commitlog.bench.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** A run's working directory, and deleting a cell's directory tree once the cell is measured. */
public final class Directories {

    private Directories() {
    }

    /**
     * The directory a run works in: {@code given}, created if missing, or, when none is given, a
     * fresh temporary one under {@code defaultOutput}, which the run then owns and deletes.
     */
    public static Path workDir(Path given, Path defaultOutput) throws IOException {
        return given == null ? Files.createTempDirectory(Files.createDirectories(defaultOutput), "tmp-")
                : Files.createDirectories(given);
    }

    public static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(root)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();   // children before parents
        }
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
    }
}
