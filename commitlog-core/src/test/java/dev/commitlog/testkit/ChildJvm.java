package dev.commitlog.testkit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Starts a main class of the test sources in a child JVM with the same class path and JVM flags.
 * In the test-jar, for other modules' tests too (commitlog-raft's process kills).
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    public static List<String> command(Class<?> mainClass, String... args) {
        return command(jvmFlags(), mainClass, args);
    }

    /** The Chronicle flags surefire runs the tests with, one per element. */
    public static List<String> jvmFlags() {
        List<String> flags = new ArrayList<>();
        for (String flag : System.getProperty("commitlog.test.jvmFlags", "").trim().split("\\s+")) {
            if (!flag.isEmpty()) {
                flags.add(flag);
            }
        }
        return flags;
    }

    /** A child started with exactly {@code jvmFlags} (e.g. none, or all but one of the Chronicle flags). */
    public static List<String> command(List<String> jvmFlags, Class<?> mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(Arrays.asList(args));
        return command;
    }

    public static Process start(List<String> command) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
