package dev.commitlog.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill tests' harness reads every line a killed child printed: a child that prints as fast as
 * it can, recording each line in a file of its own after printing it, is killed at random moments;
 * every line that file holds must be among the lines {@link ChildKill#runAndKill} returns. A harness
 * that misses lines would let a kill test miss a discard the child made (and report loss that is
 * not there) or an acknowledgement (and not check it).
 */
class ChildKillTest {
    private static final int KILLS = 6;

    @TempDir
    Path dir;

    @Test
    void everyLineTheChildPrintedIsRead() throws Exception {
        Random random = new Random();
        long linesChecked = 0;
        int killsWithLines = 0;
        for (int kill = 0; kill < KILLS; kill++) {
            Path printed = dir.resolve("printed-" + kill);
            List<String> command = ChildJvm.command(List.of("-XX:TieredStopAtLevel=1", "-Xshare:auto"), LinePrinterChild.class,
                    printed.toString());
            List<String> lines = ChildKill.runAndKill(command, dir.resolve("child-" + kill + ".err"), Duration.ofSeconds(60),
                    50 + random.nextInt(250), "kill " + kill);
            assertEquals(KillableChild.READY, lines.get(0));
            Set<String> read = new HashSet<>(lines);
            List<String> recorded = Files.readAllLines(printed);
            if (recorded.size() > 1) {
                killsWithLines++; // on a loaded machine the child may get no time to print between READY and the kill
            }
            for (String line : recorded.subList(0, Math.max(0, recorded.size() - 1))) { // the last may be cut by the kill
                int number = kill;
                assertTrue(read.contains(line), () -> "kill " + number + ": the child printed '" + line.substring(0, line.indexOf(' ', 5))
                        + "' (" + recorded.size() + " recorded) but the parent read " + (lines.size() - 1) + " lines");
            }
            linesChecked += recorded.size();
        }
        assertTrue(killsWithLines > 0, "in none of " + KILLS + " kills had the child printed two lines before it");
        System.out.printf("child kills: %d kills (%d with lines to check), %d printed lines all read%n", KILLS, killsWithLines,
                linesChecked);
    }
}
