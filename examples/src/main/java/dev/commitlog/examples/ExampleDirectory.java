package dev.commitlog.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The directory an example's {@code main} works in: the first argument if given (kept afterwards,
 * so a second run finds what the first left), otherwise a new temporary directory, deleted when
 * the example finishes.
 */
final class ExampleDirectory implements AutoCloseable {
    private final Path path;
    private final boolean temporary;

    private ExampleDirectory(Path path, boolean temporary) {
        this.path = path;
        this.temporary = temporary;
    }

    /** {@code args[0]} as a directory (created if missing), or a new temporary one named after {@code example}. */
    static ExampleDirectory of(String[] args, String example) throws IOException {
        if (args.length > 1) {
            throw new IllegalArgumentException("expected at most one argument, a directory; got " + args.length + ": " + String.join(" ", args));
        }
        if (args.length == 1) {
            return new ExampleDirectory(Files.createDirectories(Path.of(args[0])), false);
        }
        return new ExampleDirectory(Files.createTempDirectory("commitlog-example-" + example + "-"), true);
    }

    Path path() {
        return path;
    }

    /** Deletes the directory if it is a temporary one. */
    @Override
    public void close() {
        if (!temporary) {
            return;
        }
        try {
            Files.walkFileTree(path, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete the example's temporary directory " + path, e);
        }
    }
}
