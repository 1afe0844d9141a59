package dev.commitlog.raft;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Captures what is logged through SLF4J during a test: the slf4j-simple binding writes to whatever
 * {@code System.err} is at the time, so this swaps it for a tee (still printing) until closed.
 * Tests run one at a time in the surefire JVM, so the swap is not shared.
 */
final class CapturedErr implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    CapturedErr() {
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

    String text() {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
