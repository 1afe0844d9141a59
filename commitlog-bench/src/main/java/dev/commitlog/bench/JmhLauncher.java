package dev.commitlog.bench;

import dev.commitlog.disk.ChronicleJvmFlags;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code java -jar commitlog-bench.jar jmh [JMH args]}: JMH's own command line, with one addition.
 * JMH forks each benchmark into a fresh JVM started with {@code -cp}, where this jar's
 * {@code Add-Opens}/{@code Add-Exports} and {@code Enable-Native-Access} manifest entries do not
 * apply, so the forks' JVM arguments start with the JVM flags block of the running JDK (a fork runs
 * the same {@code java}) and what this jar's own libraries need, ahead of any
 * {@code -jvmArgsPrepend} the caller gives.
 */
final class JmhLauncher {

    private JmhLauncher() {
    }

    static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(withChronicleFlags(Arrays.asList(args)).toArray(String[]::new));
    }

    /** Merges the Chronicle flags into {@code -jvmArgsPrepend}, keeping any the caller gave. */
    static List<String> withChronicleFlags(List<String> args) {
        List<String> out = new ArrayList<>();
        StringBuilder prepend = new StringBuilder(String.join(" ", chronicleFlags()));
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

    /**
     * The block for this JDK, then: the jdk.compiler access Chronicle Queue's code generation uses
     * (the chronicle-queue peer), no Chronicle analytics, and native access for RocksDB's JNI
     * library (a flag JDK 17 already takes).
     */
    static List<String> chronicleFlags() {
        List<String> flags = new ArrayList<>(ChronicleJvmFlags.block());
        flags.addAll(List.of("--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED", "--add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
                "-Dchronicle.analytics.disable=true", "--enable-native-access=ALL-UNNAMED"));
        return flags;
    }
}
