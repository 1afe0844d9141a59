package dev.commitlog;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Starts a main class of the test sources in a child JVM with the same class path and JVM flags. */
final class ChildJvm {
    private ChildJvm() {
    }

    static List<String> command(Class<?> mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        String flags = System.getProperty("commitlog.test.jvmFlags", "");
        for (String flag : flags.trim().split("\\s+")) {
            if (!flag.isEmpty()) {
                command.add(flag);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(Arrays.asList(args));
        return command;
    }

    static Process start(List<String> command) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
