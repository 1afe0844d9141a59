package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.commitlog.config.SyncMode;
import dev.commitlog.testkit.ChildKill;
import dev.commitlog.testkit.KillableChild;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL on a process running a whole three-node Raft group ({@link RaftKillChild}), each node
 * over its own commit log: killed at a random moment while it applies operations, restarted on
 * the same directories and ports. At each restart every node's state machine, rebuilt by replaying
 * its log (no snapshots), must hold every operation acknowledged in all earlier lives on those
 * directories, each once, in the order they were submitted; the three must agree; and it may hold
 * nothing that was never submitted.
 *
 * <p>A killed process loses nothing the page cache holds, so this tests the storage's ordering
 * and replay (acknowledge after the flush, marker records applied in log order at restart), not
 * the device: power loss is {@link RaftPowerLossTest}'s job.
 */
class RaftProcessKillTest {
    /** Lives on one set of directories before starting fresh ones, so that replay stays short. */
    private static final int CYCLES_PER_DIRECTORY = 20;
    private static final SyncMode[] MODES = {SyncMode.BATCH, SyncMode.ADAPTIVE, SyncMode.GROUP};

    @TempDir
    Path dir;

    @Test
    void killedGroupProcessLosesNoAcknowledgedOperation() throws Exception {
        SeededRun.report("raft process kills", runCycles(2));
    }

    @Tag("slow")
    @Test
    void killedGroupProcessLosesNoAcknowledgedOperationManyKills() throws Exception {
        SeededRun.report("raft process kills (slow)", runCycles(Integer.getInteger("commitlog.test.raftKills", 150)));
    }

    static final class Totals {
        int kills;
        long acknowledged;
        long checked;
        int killedBeforeAnyAck;

        @Override
        public String toString() {
            return kills + " SIGKILLs, " + acknowledged + " operations acknowledged, " + checked
                    + " acknowledged operations checked in replayed state machines (summed over restarts)"
                    + (killedBeforeAnyAck > 0 ? ", " + killedBeforeAnyAck + " lives killed before any acknowledgement" : "");
        }
    }

    /** {@code cycles} lives killed at random moments; each directory's last life only replays and is killed once checked. */
    private Totals runCycles(int cycles) throws Exception {
        Random random = SeededRun.random(getClass());
        Totals totals = new Totals();
        for (int start = 0; start < cycles; start += CYCLES_PER_DIRECTORY) {
            Path root = Files.createDirectories(dir.resolve("group-" + start));
            String ports = String.join(",", RaftTestCluster.freePorts(3).stream().map(String::valueOf).toList());
            TreeSet<Long> acknowledged = new TreeSet<>();
            int end = Math.min(cycles, start + CYCLES_PER_DIRECTORY);
            for (int generation = start; generation <= end; generation++) {
                boolean last = generation == end;
                SyncMode mode = MODES[generation % MODES.length];
                Life life = runAndKill(root, ports, generation, mode, last ? 0 : 100 + random.nextInt(900));
                totals.kills++;
                checkReplayed(life, acknowledged, generation);
                totals.checked += acknowledged.size();
                if (last) {
                    break;
                }
                int fresh = 0;
                for (long op : life.acknowledged) {
                    assertTrue(acknowledged.add(op), "generation " + generation + " acknowledged " + op + " twice");
                    fresh++;
                }
                totals.acknowledged += fresh;
                if (fresh == 0) {
                    totals.killedBeforeAnyAck++;
                }
            }
        }
        assertTrue(totals.acknowledged > cycles, "the children acknowledged operations: " + totals);
        return totals;
    }

    /** What one life printed: each node's replayed state machine, then the operations it acknowledged. */
    private record Life(List<List<Long>> replayed, List<Long> acknowledged) {
    }

    private static void checkReplayed(Life life, TreeSet<Long> acknowledged, int generation) {
        assertEquals(3, life.replayed.size(), "generation " + generation + ": replayed state machines");
        List<Long> first = life.replayed.get(0);
        for (int node = 0; node < life.replayed.size(); node++) {
            List<Long> ops = life.replayed.get(node);
            String what = "generation " + generation + ", node " + node;
            assertEquals(first, ops, what + ": the nodes' replayed state machines differ");
            for (int i = 0; i < ops.size(); i++) {
                long op = ops.get(i);
                assertTrue(op >>> 32 < generation, () -> what + ": operation " + op + " was never submitted");
                if (i > 0 && op <= ops.get(i - 1)) {
                    fail(what + ": operation " + op + " replayed after " + ops.get(i - 1) + " (a duplicate or a reordering)");
                }
            }
            Set<Long> applied = new HashSet<>(ops);
            TreeSet<Long> missing = new TreeSet<>();
            for (long op : acknowledged) {
                if (!applied.contains(op)) {
                    missing.add(op);
                }
            }
            assertTrue(missing.isEmpty(), () -> what + ": " + missing.size() + " acknowledged operations missing after the kill, first "
                    + missing.first() + " (generation " + (missing.first() >>> 32) + ", seq " + (missing.first() & 0xffffffffL) + ")");
        }
    }

    /** Starts the child, waits for its replay report, lets it apply for {@code applyMillis}, kills it; returns what it printed. */
    private Life runAndKill(Path root, String ports, int generation, SyncMode mode, long applyMillis) throws Exception {
        List<String> command = RaftChildJvm.command(RaftKillChild.class, root.toString(), Integer.toString(generation), mode.name(), ports);
        List<String> lines = ChildKill.runAndKill(command, dir.resolve("child-" + generation + ".err"), Duration.ofSeconds(90),
                applyMillis, "generation " + generation);
        List<List<Long>> replayed = new ArrayList<>();
        List<Long> acks = new ArrayList<>();
        for (String line : lines) {
            String[] parts = line.split(" ");
            switch (parts[0]) {
                case RaftKillChild.REPLAYED -> replayed.add(Arrays.stream(parts).skip(2).map(Long::valueOf).toList());
                case RaftKillChild.ACK -> acks.add(Long.valueOf(parts[1]));
                case KillableChild.READY -> { }
                default -> fail("generation " + generation + ": unexpected line from the child: '" + line + "'");
            }
        }
        return new Life(replayed, acks);
    }
}
