package dev.commitlog.testkit;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Captures what the log writes through SLF4J in tests: the slf4j-simple binding writes to
 * whatever {@code System.err} is at the time, so this swaps it for a tee (still printing) until
 * closed. Tests run one at a time in the surefire JVM, so the swap is not shared. In the
 * test-jar, for other modules' tests too.
 */
public final class CapturedLog implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    public CapturedLog() {
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (captured) {
                    captured.write(b);
                }
                original.write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                synchronized (captured) {
                    captured.write(bytes, offset, length);
                }
                original.write(bytes, offset, length);
            }
        };
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    public String text() {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8);
        }
    }

    /** How many times {@code fragment} occurs in what was logged. */
    public int count(String fragment) {
        String text = text();
        int count = 0;
        for (int at = text.indexOf(fragment); at >= 0; at = text.indexOf(fragment, at + 1)) {
            count++;
        }
        return count;
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
