package dev.commitlog.tools;

import dev.commitlog.segment.SegmentDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The DIR argument of every command: checked up front, so a wrong path is one clear line. */
final class LogDirectory {
    private LogDirectory() {
    }

    /**
     * Returns {@code directory} if it is a readable directory holding segment files.
     *
     * @throws ParameterException naming what is wrong (exit code 2)
     */
    static Path check(CommandSpec spec, Path directory) {
        if (!Files.exists(directory)) {
            throw refuse(spec, "directory " + directory + " does not exist");
        }
        if (!Files.isDirectory(directory)) {
            throw refuse(spec, directory + " is not a directory");
        }
        if (!Files.isReadable(directory) || !Files.isExecutable(directory)) {
            throw refuse(spec, "directory " + directory + " is not readable");
        }
        try (Stream<Path> files = Files.list(directory)) {
            if (files.noneMatch(file -> SegmentDescriptor.parseId(file.getFileName().toString()) >= 0)) {
                throw refuse(spec, "directory " + directory + " holds no commit log segment files ("
                        + SegmentDescriptor.FILE_PREFIX + "<20-digit id>" + SegmentDescriptor.FILE_SUFFIX + ")");
            }
        } catch (IOException e) {
            throw refuse(spec, "cannot list directory " + directory + ": " + OneLineErrors.describe(e));
        }
        return directory;
    }

    private static ParameterException refuse(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
