package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SimulatedDisk;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power loss of JRaft nodes whose commit log and Raft meta are both on a {@link SimulatedDisk}
 * ({@link PoweredNode}), in a three-node group in this JVM while a client keeps writing. At a
 * random moment one node loses power (the leader or a follower: half of the single losses each, in
 * random order), or every fourth time all three at once; each restarts on its crash image (unsynced writes of the log and of the
 * meta lost under a random {@link SimulatedDisk.Loss}). Checked after each loss, once the group
 * caught up:
 * <ul>
 *   <li>every node's state machine, with the operations not acknowledged taken out, equals the
 *       acknowledged operations in order: 0 acknowledged lost, even when every node lost power
 *       ({@link OpsCheck});</li>
 *   <li>each restarted node's log holds everything its storage acknowledged ({@link AcknowledgedLog})
 *       and its meta the term and vote it acknowledged ({@link AcknowledgedMeta});</li>
 *   <li>no node ever holds two votes in one term, and no term has two leaders
 *       ({@link ElectionJournal}).</li>
 * </ul>
 */
class RaftNodePowerLossTest {
    private static final SyncMode[] MODES = {SyncMode.BATCH, SyncMode.ADAPTIVE, SyncMode.GROUP};
    private static final Duration CONVERGE_TIMEOUT = Duration.ofSeconds(60);
    private static final int NODES = 3;
    /** Power losses of one group before the next starts on fresh disks, so that the logs (and their images) stay small. */
    private static final int LOSSES_PER_GROUP = 8;

    @TempDir
    Path dir;

    @Test
    void nodePowerLossLosesNothingAcknowledgedAndNeverVotesTwice() throws Exception {
        SeededRun.report("raft node power loss", run(10));
    }

    @Tag("slow")
    @Test
    void nodePowerLossLosesNothingAcknowledgedAndNeverVotesTwiceManyTimes() throws Exception {
        SeededRun.report("raft node power loss (slow)", run(Integer.getInteger("commitlog.test.nodePowerLosses", 300)));
    }

    /** What the groups of one run went through, summed. */
    private static final class Totals {
        int leaderLosses;
        int followerLosses;
        int groupLosses;
        final Map<SimulatedDisk.Loss, Integer> policies = new EnumMap<>(SimulatedDisk.Loss.class);
        long acknowledged;
        int failed;
        int unknown;
        int committedWithoutAcknowledgement;
        int checks;
        int storageChecks;
        int metaChecks;
        final int[] inFlight = new int[3];
        int votes;
        int leaderTerms;

        @Override
        public String toString() {
            return (leaderLosses + followerLosses + groupLosses) + " power losses (" + leaderLosses + " of the leader, " + followerLosses
                    + " of a follower, " + groupLosses + " of all three nodes at once; images " + policies + "), " + acknowledged
                    + " operations acknowledged, 0 lost (" + checks + " checks); " + failed + " failed and " + unknown
                    + " unknown outcomes, " + committedWithoutAcknowledgement + " of them committed; " + storageChecks
                    + " restarted logs and " + metaChecks + " restarted metas checked against what they acknowledged (calls in flight: kept "
                    + inFlight[0] + ", absent " + inFlight[1] + ", append prefix " + inFlight[2] + "); " + votes + " votes in "
                    + leaderTerms + " terms with a leader, none twice";
        }
    }

    private String run(int losses) throws Exception {
        Random random = SeededRun.random(getClass());
        long start = System.nanoTime();
        Totals totals = new Totals();
        for (int round = 0; round * LOSSES_PER_GROUP < losses; round++) {
            runGroup(Math.min(LOSSES_PER_GROUP, losses - round * LOSSES_PER_GROUP), random, totals, dir.resolve("group-" + round));
        }
        return totals + "; " + (System.nanoTime() - start) / 1_000_000_000 + " s";
    }

    /** One group on fresh disks: {@code losses} power losses, each followed by restarts and a check. */
    private static void runGroup(int losses, Random random, Totals totals, Path root) throws Exception {
        ElectionJournal journal = new ElectionJournal();
        List<Integer> ports = RaftTestCluster.freePorts(NODES);
        List<PoweredNode> nodes = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            nodes.add(new PoweredNode(i, RaftNodes.peer(ports.get(i)), RaftNodes.configuration(ports), root.resolve("node-" + i), journal));
        }
        OpsClient client = new OpsClient(() -> nodes.stream().filter(PoweredNode::leads).findFirst().orElse(null), 64);
        OpsCheck check = new OpsCheck();
        try {
            for (PoweredNode node : nodes) {
                node.start(MODES[random.nextInt(MODES.length)]);
            }
            client.resume();
            List<Boolean> ofLeader = RaftNodeKillTest.leaderOrFollower(losses - losses / 4, random);
            for (int loss = 0; loss < losses; loss++) {
                Thread.sleep(100 + random.nextInt(700));
                List<PoweredNode> victims = new ArrayList<>();
                if (loss % 4 == 3) {
                    victims.addAll(nodes);
                    totals.groupLosses++;
                } else {
                    PoweredNode leader = awaitLeader(nodes);
                    PoweredNode victim = ofLeader.get(loss - loss / 4) ? leader : nodes.get((leader.index + 1 + random.nextInt(2)) % NODES);
                    if (victim.leads()) {
                        totals.leaderLosses++;
                    } else {
                        totals.followerLosses++;
                    }
                    victims.add(victim);
                }
                for (PoweredNode victim : victims) {
                    victim.powerOff();
                }
                for (PoweredNode victim : victims) {
                    victim.crashAndShutDown(random, client);
                    totals.policies.merge(victim.lastLoss(), 1, Integer::sum);
                }
                Thread.sleep(random.nextInt(300));
                for (PoweredNode victim : victims) {
                    victim.start(MODES[random.nextInt(MODES.length)]);
                }
                client.pause(CONVERGE_TIMEOUT);
                converge(nodes, client, check, journal);
                client.resume();
            }
            client.pause(CONVERGE_TIMEOUT);
            converge(nodes, client, check, journal);
            assertTrue(client.acknowledged().size() > losses, "the client made progress");
            totals.acknowledged += client.acknowledged().size();
            totals.failed += client.failedCount();
            totals.unknown += client.unknownCount();
            totals.committedWithoutAcknowledgement += check.committedWithoutAcknowledgement();
            totals.checks += check.checks();
            for (PoweredNode node : nodes) {
                totals.storageChecks += node.storage.restartsChecked();
                totals.metaChecks += node.meta.restartsChecked();
                int[] outcomes = node.storage.inFlightOutcomes();
                for (int k = 0; k < 3; k++) {
                    totals.inFlight[k] += outcomes[k];
                }
            }
            totals.votes += journal.votes();
            totals.leaderTerms += journal.leaderTerms();
        } finally {
            client.close();
            for (PoweredNode node : nodes) {
                node.stop(client);
            }
        }
    }

    private static PoweredNode awaitLeader(List<PoweredNode> nodes) throws InterruptedException {
        RaftTestCluster.await("a leader", CONVERGE_TIMEOUT, () -> nodes.stream().anyMatch(PoweredNode::leads));
        return nodes.stream().filter(PoweredNode::leads).findFirst().orElseThrow();
    }

    /** Waits until every node holds the same operations, every acknowledged one among them; checks them and every journal. */
    private static void converge(List<PoweredNode> nodes, OpsClient client, OpsCheck check, ElectionJournal journal)
            throws InterruptedException {
        assertHealthy(nodes, journal);
        long deadline = System.nanoTime() + CONVERGE_TIMEOUT.toNanos();
        while (true) {
            List<List<Long>> ops = nodes.stream().map(PoweredNode::ops).toList();
            boolean same = ops.stream().allMatch(o -> o.equals(ops.get(0)));
            if (same && ops.get(0).size() >= client.acknowledged().size()) {
                String problem = check.check(ops.get(0), client.acknowledged(), client.submittedBelow(), op -> false);
                assertTrue(problem == null, problem);
                break;
            }
            if (System.nanoTime() > deadline) {
                String problem = check.check(ops.get(0), client.acknowledged(), client.submittedBelow(), op -> false);
                throw new AssertionError("the nodes did not converge within " + CONVERGE_TIMEOUT + ": operations per node "
                        + ops.stream().map(List::size).toList() + ", acknowledged " + client.acknowledged().size() + ", nodes "
                        + nodes.stream().map(PoweredNode::status).toList()
                        + (problem != null ? "; node 0: " + problem : ""));
            }
            Thread.sleep(50);
        }
        assertHealthy(nodes, journal);
    }

    private static void assertHealthy(List<PoweredNode> nodes, ElectionJournal journal) {
        List<String> failures = new ArrayList<>(journal.failures());
        for (PoweredNode node : nodes) {
            failures.addAll(node.storage.failures());
            failures.addAll(node.meta.failures());
        }
        assertTrue(failures.isEmpty(), () -> String.join("\n", failures));
    }
}
