package dev.commitlog.tools;

import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into one line on stderr, prefixed with the command, and an exit code: an
 * operator reading a terminal or a log wants what went wrong and where, not a stack trace.
 */
final class OneLineErrors {
    private static final String COMMANDS = "dump, verify, stats, truncate-after";

    private OneLineErrors() {
    }

    /** Bad arguments or directory: the parse failed, or a command refused its input before doing anything. */
    static int onBadArguments(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        String message = e.getMessage();
        if (e instanceof UnmatchedArgumentException unmatched) {
            List<String> arguments = unmatched.getUnmatched();
            boolean unknownCommand = command.getCommandSpec().parent() == null && !arguments.isEmpty() && !arguments.get(0).startsWith("-");
            if (unknownCommand) {
                message = "unknown command '" + arguments.get(0) + "' (commands: " + COMMANDS + ")";
            } else if (!unmatched.getSuggestions().isEmpty()) {
                message += "; did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?";
            }
        }
        String name = command.getCommandSpec().qualifiedName();
        print(command.getErr(), name, oneLine(message) + " (see '" + name + " --help')");
        return ExitCode.USAGE;
    }

    /** The command failed while doing its work. */
    static int onFailure(Exception e, CommandLine command, ParseResult parseResult) {
        print(command.getErr(), command.getCommandSpec().qualifiedName(), describe(e));
        return ExitCode.FAILED;
    }

    static String describe(Throwable e) {
        if (e instanceof NoSuchFileException) {
            return "no such file: " + e.getMessage();
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied: " + e.getMessage();
        }
        if (e instanceof FileSystemException) {
            return oneLine(e.getMessage()); // "file: reason"
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : oneLine(message);
    }

    private static void print(PrintWriter err, String command, String message) {
        err.println(command + ": " + message);
        err.flush();
    }

    private static String oneLine(String message) {
        return message.strip().replaceAll("\\s*\\R\\s*", "; ");
    }
}
