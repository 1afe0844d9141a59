package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL of one node of three, each node its own process ({@link ProcessCluster}), while a client
 * keeps writing: at a random moment a node is killed (the leader or a follower: half of the kills
 * each, in random order),
 * restarted on the same directory and port, and once it caught up (the client paused) every
 * node's state machine is checked ({@link OpsCheck}): the operations, with those not acknowledged
 * taken out, equal the acknowledged operations in order; 0 acknowledged operations lost. Each
 * restart also checks the killed node's own log storage: it holds everything it acknowledged to
 * JRaft before the kill ({@link AcknowledgedLog}).
 */
class RaftNodeKillTest {
    /** Kills of one group before the next starts on fresh directories, so that replay and the checks stay short. */
    private static final int KILLS_PER_GROUP = 25;

    @TempDir
    Path dir;

    @Test
    void killedNodeLosesNoAcknowledgedOperation() throws Exception {
        SeededRun.report("raft node kills", run(4));
    }

    @Tag("slow")
    @Test
    void killedNodeLosesNoAcknowledgedOperationManyKills() throws Exception {
        SeededRun.report("raft node kills (slow)", run(Integer.getInteger("commitlog.test.nodeKills", 100)));
    }

    static final class Totals {
        int leaderKills;
        int followerKills;
        long acknowledged;
        int failed;
        int unknown;
        int committedWithoutAcknowledgement;
        int checks;
        int storageChecks;
        int[] inFlight = new int[3];
        long millis;

        @Override
        public String toString() {
            return (leaderKills + followerKills) + " SIGKILLs (" + leaderKills + " of the leader, " + followerKills + " of a follower), "
                    + acknowledged + " operations acknowledged, 0 lost (" + checks + " checks of all three state machines); "
                    + failed + " failed and " + unknown + " unknown outcomes, " + committedWithoutAcknowledgement
                    + " of them committed; " + storageChecks + " restarts' logs checked against what the storage acknowledged"
                    + " (calls in flight at the kill: kept " + inFlight[0] + ", absent " + inFlight[1] + ", append prefix "
                    + inFlight[2] + "); " + millis / 1000 + " s";
        }
    }

    private Totals run(int kills) throws Exception {
        Random random = SeededRun.random(getClass());
        Totals totals = new Totals();
        long start = System.nanoTime();
        for (int round = 0; round * KILLS_PER_GROUP < kills; round++) {
            runGroup(Math.min(KILLS_PER_GROUP, kills - round * KILLS_PER_GROUP), random, totals, dir.resolve("group-" + round));
        }
        totals.millis = (System.nanoTime() - start) / 1_000_000;
        return totals;
    }

    /** One group on fresh directories: {@code kills} kills, each followed by a restart and a check. */
    private static void runGroup(int kills, Random random, Totals totals, Path root) throws Exception {
        try (ProcessCluster cluster = ProcessCluster.started(root, false, random)) {
            List<Boolean> ofLeader = leaderOrFollower(kills, random);
            for (int kill = 0; kill < kills; kill++) {
                Thread.sleep(300 + random.nextInt(1200));
                int target = pick(cluster, ofLeader.get(kill), random);
                if (target == cluster.leader()) {
                    totals.leaderKills++;
                } else {
                    totals.followerKills++;
                }
                cluster.kill(target);
                Thread.sleep(random.nextInt(1000)); // the group goes on without it, electing a new leader if it led
                cluster.start(target);
                cluster.pauseAndConverge();
                cluster.client.resume();
            }
            List<Long> ops = cluster.pauseAndConverge();
            int acknowledged = cluster.client.acknowledged().size();
            assertTrue(acknowledged > kills, "the client made progress: " + acknowledged + " operations acknowledged");
            assertTrue(ops.size() >= acknowledged, "every acknowledged operation is applied");
            totals.acknowledged += acknowledged;
            totals.failed += cluster.client.failedCount();
            totals.unknown += cluster.client.unknownCount();
            totals.committedWithoutAcknowledgement += cluster.check().committedWithoutAcknowledgement();
            totals.checks += cluster.check().checks();
            totals.storageChecks += cluster.storageChecks();
            int[] inFlight = cluster.inFlightOutcomes();
            for (int k = 0; k < inFlight.length; k++) {
                totals.inFlight[k] += inFlight[k];
            }
        }
    }

    /** Whether each kill is of the leader: half of them (one more at random if odd), in random order. */
    static List<Boolean> leaderOrFollower(int kills, Random random) {
        List<Boolean> ofLeader = new ArrayList<>();
        for (int i = 0; i < kills; i++) {
            ofLeader.add(i < kills / 2 || (i == kills / 2 && kills % 2 == 1 && random.nextBoolean()));
        }
        Collections.shuffle(ofLeader, random);
        return ofLeader;
    }

    /** The leader (waiting for one if the group is electing), or a node that does not lead. */
    private static int pick(ProcessCluster cluster, boolean leader, Random random) throws InterruptedException {
        int current = cluster.awaitLeader(Duration.ofSeconds(30));
        if (leader) {
            return current;
        }
        List<Integer> followers = new ArrayList<>(Arrays.asList(0, 1, 2));
        followers.remove(Integer.valueOf(current));
        return followers.get(random.nextInt(followers.size()));
    }
}
