package dev.commitlog.tools;

import dev.commitlog.format.SegmentDescriptor;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The DIR argument every command takes (a picocli mixin), checked before any file is opened, so a
 * wrong path is one clear line and exit code 2.
 */
final class LogDirectory {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Parameters(index = "0", paramLabel = "DIR", description = "the commit log directory (commitlog_directory)")
    Path path;

    /**
     * Returns the directory if it is a readable directory holding segment files.
     *
     * @throws ParameterException naming what is wrong
     */
    Path checked() {
        if (!Files.exists(path)) {
            throw refuse("directory " + path + " does not exist");
        }
        if (!Files.isDirectory(path)) {
            throw refuse(path + " is not a directory");
        }
        if (!Files.isReadable(path) || !Files.isExecutable(path)) {
            throw refuse("directory " + path + " is not readable");
        }
        try (Stream<Path> files = Files.list(path)) {
            if (files.noneMatch(file -> SegmentDescriptor.parseId(file.getFileName().toString()) >= 0)) {
                throw refuse("directory " + path + " holds no commit log segment files ("
                        + SegmentDescriptor.FILE_PREFIX + "<20-digit id>" + SegmentDescriptor.FILE_SUFFIX + ")");
            }
        } catch (IOException e) {
            throw refuse("cannot list directory " + path + ": " + OneLineErrors.describe(e));
        }
        return path;
    }

    /** Where the command that uses this mixin prints its results. */
    PrintWriter out() {
        return command.commandLine().getOut();
    }

    /** A bad argument of the command that uses this mixin. */
    ParameterException refuse(String message) {
        return new ParameterException(command.commandLine(), message);
    }
}
