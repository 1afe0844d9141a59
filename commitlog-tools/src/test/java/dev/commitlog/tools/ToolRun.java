package dev.commitlog.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

/** One in-process run of the tool through its main entry: exit code, stdout and stderr. */
record ToolRun(int exitCode, String out, String err) {

    static ToolRun of(Object... args) {
        return withEnvironment(Map.of(), args);
    }

    /** A run whose environment variables are {@code environment} alone (the tool reads a keystore password from one). */
    static ToolRun withEnvironment(Map<String, String> environment, Object... args) {
        String[] strings = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            strings[i] = String.valueOf(args[i]);
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = ToolsMain.run(strings, new PrintWriter(out), new PrintWriter(err), environment::get);
        return new ToolRun(code, out.toString(), err.toString());
    }

    List<String> outLines() {
        return out.lines().toList();
    }

    /** The run failed with exactly one line on stderr (returned), nothing on stdout, and no stack trace. */
    String oneErrorLine(int expectedExitCode) {
        assertEquals(expectedExitCode, exitCode, "exit code; stderr: " + err);
        List<String> lines = err.lines().toList();
        assertEquals(1, lines.size(), "exactly one line on stderr: " + err);
        assertFalse(err.contains("Exception") || err.contains("\tat "), "no stack trace: " + err);
        assertEquals("", out, "nothing on stdout");
        return lines.get(0);
    }

    /** The run succeeded with the given exit code and nothing on stderr. */
    ToolRun succeeded(int expectedExitCode) {
        assertEquals(expectedExitCode, exitCode, "exit code; stdout: " + out + "\nstderr: " + err);
        assertEquals("", err, "nothing on stderr");
        return this;
    }
}
