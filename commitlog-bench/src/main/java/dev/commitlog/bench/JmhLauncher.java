package dev.commitlog.bench;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * {@code java -jar commitlog-bench.jar jmh [JMH args]}: JMH's own command line, with one addition.
 * JMH forks each benchmark into a fresh JVM started with {@code -cp}, where this jar's
 * {@code Add-Opens}/{@code Add-Exports} manifest entries do not apply, so the Chronicle flags
 * (the parent pom's {@code chronicle.jvm.flags}, filtered into a resource) are prepended to the
 * forks' JVM arguments, ahead of any {@code -jvmArgsPrepend} the caller gives.
 */
final class JmhLauncher {

    private JmhLauncher() {
    }

    static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(withChronicleFlags(Arrays.asList(args)).toArray(String[]::new));
    }

    /** Merges the Chronicle flags into {@code -jvmArgsPrepend}, keeping any the caller gave. */
    static List<String> withChronicleFlags(List<String> args) throws IOException {
        List<String> out = new ArrayList<>();
        StringBuilder prepend = new StringBuilder(chronicleFlags());
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("-jvmArgsPrepend") && i + 1 < args.size()) {
                prepend.append(' ').append(args.get(++i));
            } else {
                out.add(args.get(i));
            }
        }
        out.add(0, "-jvmArgsPrepend");
        out.add(1, prepend.toString());
        return out;
    }

    static String chronicleFlags() throws IOException {
        Properties p = new Properties();
        try (InputStream in = JmhLauncher.class.getResourceAsStream("/commitlog-bench.properties")) {
            if (in == null) {
                throw new IOException("commitlog-bench.properties missing from the jar");
            }
            p.load(in);
        }
        return p.getProperty("chronicle.jvm.flags");
    }
}
