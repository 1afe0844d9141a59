package dev.commitlog.bench.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Deleting a cell's directory tree once the cell is measured. */
public final class Directories {

    private Directories() {
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
