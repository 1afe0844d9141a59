package dev.commitlog.tools;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar commitlog-tools.jar COMMAND ...}: inspect, verify and repair a commit log
 * directory. Every command prints {@code --help}; errors are one line on stderr and an exit code
 * from {@link ExitCode}, never a stack trace.
 */
@Command(name = "commitlog-tools", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = "Inspect, verify and repair a commit log directory. Only truncate-after changes anything.",
        subcommands = {DumpCommand.class, VerifyCommand.class, StatsCommand.class, TruncateAfterCommand.class},
        footer = {"", "An encrypted log (commitlog_encryption: aes-gcm): give dump, verify and stats --keystore FILE and its password "
                + "with --keystore-password-file FILE or --keystore-password-env VAR (no option takes the password itself: ps shows "
                + "command lines to every user).",
                "", "Exit codes: 0 done (verify: the log opens), 1 verify found damage, 2 bad arguments, directory or keystore, "
                + "3 could not be done (log open, cut refused, a key the keystore lacks, I/O error)."})
public final class ToolsMain implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Runs the command and exits the JVM with its exit code. */
    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(run(args, out, err));
    }

    /** Runs the command with the given output streams and returns its exit code (tests call this). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, out, err, System::getenv);
    }

    /** As {@link #run(String[], PrintWriter, PrintWriter)}, reading environment variables from {@code environment}. */
    static int run(String[] args, PrintWriter out, PrintWriter err, Function<String, String> environment) {
        CommandLine commandLine = new CommandLine(new ToolsMain(), new Factory(environment))
                .setOut(out)
                .setErr(err)
                .setParameterExceptionHandler(OneLineErrors::onBadArguments)
                .setExecutionExceptionHandler(OneLineErrors::onFailure);
        try {
            return commandLine.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** Makes the key options with the environment they read a password from; everything else as picocli does. */
    private record Factory(Function<String, String> environment) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            if (type == KeyOptions.class) {
                return type.cast(new KeyOptions(environment));
            }
            return CommandLine.defaultFactory().create(type);
        }
    }

    /** No command given. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing command: one of dump, verify, stats, truncate-after");
    }
}
