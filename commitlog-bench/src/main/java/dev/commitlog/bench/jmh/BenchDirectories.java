package dev.commitlog.bench.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where JMH benchmarks put their logs: under {@code ./bench-out} (or {@code -Dcommitlog.bench.dir})
 * on the working directory's filesystem, not {@code /tmp}, which may be tmpfs.
 */
final class BenchDirectories {

    private BenchDirectories() {
    }

    static Path create(String prefix) throws IOException {
        Path base = Path.of(System.getProperty("commitlog.bench.dir", "bench-out"));
        return Files.createTempDirectory(Files.createDirectories(base), prefix);
    }

    static void delete(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
