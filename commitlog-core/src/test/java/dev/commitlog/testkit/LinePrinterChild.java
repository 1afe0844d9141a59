package dev.commitlog.testkit;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@link ChildKillTest}'s child: prints numbered lines as fast as it can, each followed by the same
 * line appended to the file {@code args[0]}. A line in that file was printed before it, so the
 * parent must have read it.
 */
public final class LinePrinterChild {
    /** Filler that makes the pipe or file fill quickly, as a busy writer's acknowledgements do. */
    private static final String FILLER = "x".repeat(200);

    private LinePrinterChild() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        KillableChild out = new KillableChild();
        try (FileOutputStream printed = new FileOutputStream(args[0], true)) {
            out.ready();
            for (long i = 0; ; i++) {
                String line = "line " + i + " " + FILLER;
                out.println(line);
                printed.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
            }
        }
    }
}
