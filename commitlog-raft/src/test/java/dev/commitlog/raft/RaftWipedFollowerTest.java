package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A follower whose directory is wiped rejoins by snapshot, in a group of three processes
 * ({@link ProcessCluster}, snapshots on) while a client keeps writing: every node takes two
 * snapshots (JRaft truncates its log up to the one before the latest, so the leader's log no longer
 * starts at index 1), a follower is killed, its whole directory
 * (commit log, Raft meta, snapshots) deleted, and it restarts as an empty node. It can only catch
 * up by installing the leader's snapshot (which resets its log storage past the snapshot); it must
 * load one and converge to the same operations as the others, 0 acknowledged lost. It is then
 * killed again and restarted on what it wrote since (its snapshot, and its log moved past it), and
 * so is the leader (its log truncated up to a snapshot): each log storage must hold what it
 * acknowledged ({@link AcknowledgedLog}).
 */
class RaftWipedFollowerTest {

    @TempDir
    Path dir;

    @Test
    void wipedFollowerRejoinsBySnapshot() throws Exception {
        SeededRun.report("raft wiped follower", run(1));
    }

    @Tag("slow")
    @Test
    void wipedFollowerRejoinsBySnapshotManyTimes() throws Exception {
        SeededRun.report("raft wiped follower (slow)", run(Integer.getInteger("commitlog.test.followerWipes", 20)));
    }

    private String run(int wipes) throws Exception {
        Random random = SeededRun.random(getClass());
        long start = System.nanoTime();
        long installed = 0;
        int prefixCuts = 0;
        int resets = 0;
        try (ProcessCluster cluster = ProcessCluster.started(dir.resolve("cluster"), true, random)) {
            for (int wipe = 0; wipe < wipes; wipe++) {
                // JRaft truncates its log up to the snapshot before its latest one: two rounds, with writes before each.
                for (int round = 0; round < 2; round++) {
                    Thread.sleep(300 + random.nextInt(700));
                    int leader = cluster.awaitLeader(ProcessCluster.START_TIMEOUT);
                    for (int i = 0; i < ProcessCluster.NODES; i++) {
                        String status = cluster.snapshot(i);
                        assertTrue(i != leader || status.equals("ok"), "the leader's snapshot: " + status);
                    }
                }
                Thread.sleep(200 + random.nextInt(800)); // writes past the snapshot, replicated as entries
                int follower = (cluster.awaitLeader(ProcessCluster.START_TIMEOUT) + 1 + random.nextInt(2)) % ProcessCluster.NODES;
                cluster.kill(follower);
                cluster.wipe(follower);
                Thread.sleep(random.nextInt(500));
                cluster.start(follower);
                cluster.pauseAndConverge();
                long loaded = cluster.snapshotsLoaded(follower);
                assertEquals(1, loaded, "snapshots the wiped node " + follower + " loaded: it can only have caught up by one");
                installed += loaded;
                NodeProcess rejoined = cluster.node(follower);
                int cuts = rejoined.returned(StorageCall.Kind.TRUNCATE_PREFIX) + rejoined.returned(StorageCall.Kind.RESET);
                assertTrue(cuts > 0, "the snapshot install moved the wiped node's log storage past the snapshot");
                prefixCuts += rejoined.returned(StorageCall.Kind.TRUNCATE_PREFIX);
                resets += rejoined.returned(StorageCall.Kind.RESET);
                cluster.client.resume();

                // Killed again: it restarts on the snapshot it installed and the log storage it moved past it. Then the
                // leader, whose log storage truncated its prefix after its snapshots.
                for (int node : new int[] {follower, cluster.awaitLeader(ProcessCluster.START_TIMEOUT)}) {
                    Thread.sleep(200 + random.nextInt(500));
                    cluster.kill(node);
                    cluster.start(node);
                    cluster.pauseAndConverge();
                    cluster.client.resume();
                }
            }
            cluster.pauseAndConverge();
            long acknowledged = cluster.client.acknowledged().size();
            assertTrue(acknowledged > 0, "the client made progress");
            return wipes + " followers wiped, " + installed + " snapshots installed (the log storage then cut by "
                    + prefixCuts + " truncatePrefix and " + resets + " reset calls), " + acknowledged + " operations acknowledged, 0 lost ("
                    + cluster.check().checks() + " checks), " + cluster.storageChecks() + " restarts' logs checked, "
                    + (System.nanoTime() - start) / 1_000_000_000 + " s";
        }
    }
}
