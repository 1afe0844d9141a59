package dev.commitlog.raft;

import dev.commitlog.testkit.ChildJvm;
import java.util.ArrayList;
import java.util.List;

/**
 * The command of a child JVM that runs Raft nodes and is killed by a test: the test JVM's
 * Chronicle flags, a small heap and a quick start (serial GC, C1 only; a node's start and replay
 * dominate a kill cycle), and the JVM's own warnings on stderr, since the child's stdout carries
 * the lines the parent holds it to.
 */
final class RaftChildJvm {
    private static final List<String> FLAGS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m",
            "-XX:+DisplayVMOutputToStderr");

    private RaftChildJvm() {
    }

    static List<String> command(Class<?> mainClass, String... args) {
        List<String> flags = new ArrayList<>(ChildJvm.jvmFlags());
        flags.addAll(FLAGS);
        return ChildJvm.command(flags, mainClass, args);
    }
}
