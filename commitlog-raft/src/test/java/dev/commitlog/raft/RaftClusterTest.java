package dev.commitlog.raft;

import static dev.commitlog.raft.RaftTestCluster.applyAll;
import static dev.commitlog.raft.RaftTestCluster.awaitAllEqual;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.Closure;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.core.NodeImpl;
import com.alipay.sofa.jraft.entity.PeerId;
import dev.commitlog.config.SyncMode;
import dev.commitlog.raft.RaftTestCluster.Member;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three JRaft nodes of one group on loopback in this JVM, each logging to its own commit log
 * through {@link CommitLogJRaftServiceFactory}, with {@code RaftOptions.sync} on: replication,
 * leader failover and catch-up of a restarted node, snapshots with prefix truncation and a lagging
 * follower that installs a snapshot, and membership changes reloaded from the logs.
 */
@Timeout(60)
class RaftClusterTest {
    private static final Duration LEADER_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration APPLY_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path directory;

    @Test
    void replicatesAppliedTasksInOrderToEveryNode() throws Exception {
        try (RaftTestCluster cluster = new RaftTestCluster(directory, 3, SyncMode.BATCH, false)) {
            cluster.startAll();
            Member leader = cluster.awaitLeader(LEADER_TIMEOUT);

            List<Long> acknowledged = applyAll(leader, 0, 200);

            awaitAllEqual(cluster, acknowledged);
        }
    }

    @Test
    void electsNewLeaderAndRestartedOldLeaderCatchesUp() throws Exception {
        try (RaftTestCluster cluster = new RaftTestCluster(directory, 3, SyncMode.ADAPTIVE, false)) {
            cluster.startAll();
            Member oldLeader = cluster.awaitLeader(LEADER_TIMEOUT);
            List<Long> acknowledged = new ArrayList<>(applyAll(oldLeader, 0, 100));
            awaitAllEqual(cluster, acknowledged);

            cluster.stop(oldLeader);
            Member newLeader = cluster.awaitLeader(LEADER_TIMEOUT);
            assertNotEquals(oldLeader.peer, newLeader.peer);
            acknowledged.addAll(applyAll(newLeader, 100, 200));
            for (Member member : cluster.running()) {
                RaftTestCluster.await(member.peer + " applying " + acknowledged.size() + " operations", CATCH_UP_TIMEOUT,
                        () -> member.fsm.size() >= acknowledged.size());
            }

            cluster.start(oldLeader);
            awaitAllEqual(cluster, acknowledged);

            // The group still makes progress with all three nodes back.
            Member leader = cluster.awaitLeader(LEADER_TIMEOUT);
            acknowledged.addAll(applyAll(leader, 200, 250));
            awaitAllEqual(cluster, acknowledged);
        }
    }

    @Test
    void laggingFollowerInstallsSnapshotAfterPrefixTruncation() throws Exception {
        try (RaftTestCluster cluster = new RaftTestCluster(directory, 3, SyncMode.BATCH, true)) {
            cluster.startAll();
            Member leader = cluster.awaitLeader(LEADER_TIMEOUT);
            List<Long> acknowledged = new ArrayList<>(applyAll(leader, 0, 100));
            awaitAllEqual(cluster, acknowledged);

            Member lagging = cluster.running().stream().filter(m -> m != leader).findFirst().orElseThrow();
            long laggingLastIndex = lagging.storage.getLastLogIndex();
            cluster.stop(lagging);

            // JRaft truncates the log up to the snapshot before the latest one, so two snapshots.
            acknowledged.addAll(applyAll(leader, 100, 200));
            snapshotAll(cluster, acknowledged);
            acknowledged.addAll(applyAll(leader, 200, 250));
            snapshotAll(cluster, acknowledged);
            RaftTestCluster.await("the leader's log prefix truncated past the lagging follower", CATCH_UP_TIMEOUT,
                    () -> leader.storage.getFirstLogIndex() > laggingLastIndex + 1);

            acknowledged.addAll(applyAll(leader, 250, 300));

            cluster.start(lagging);
            awaitAllEqual(cluster, acknowledged);
            assertEquals(1, lagging.fsm.snapshotsLoaded(), "snapshots installed by the lagging follower");

            // Compaction on the running nodes: each log checkpoints the group's bounds (its first records lie
            // below the truncated prefix) and discards below its oldest live entry.
            for (Member member : cluster.running()) {
                assertTrue(member.log.compact() > 0, member.peer + " compacts past the log's first records");
                assertTrue(member.log.compaction().checkpoints() >= 1, member.peer + " checkpoints the group");
            }

            // A full restart: every node loads its snapshot and replays the entries its log kept past it.
            for (Member member : cluster.members()) {
                cluster.stop(member);
            }
            cluster.startAll();
            awaitAllEqual(cluster, acknowledged);
            Member newLeader = cluster.awaitLeader(LEADER_TIMEOUT);
            acknowledged.addAll(applyAll(newLeader, 300, 350));
            awaitAllEqual(cluster, acknowledged);
        }
    }

    /**
     * Membership changes are configuration entries in the log (with peers, so they take the codec
     * path, not the raw DATA layout): a fourth node joins, one of the first three leaves, and after a
     * restart of every node each one's configuration comes from its own log, not from the initial
     * configuration it is started with (which still names the node that left and not the newcomer).
     */
    @Test
    void membershipChangesAreLoggedAndReloadedAfterRestart() throws Exception {
        try (RaftTestCluster cluster = new RaftTestCluster(directory, 3, SyncMode.ADAPTIVE, false)) {
            cluster.startAll();
            Member leader = cluster.awaitLeader(LEADER_TIMEOUT);
            List<Long> acknowledged = new ArrayList<>(applyAll(leader, 0, 100));

            Member newcomer = cluster.newcomer();
            cluster.start(newcomer);
            assertTrue(await(done -> leader.node.addPeer(newcomer.peer, done)).isOk(), "adding " + newcomer.peer);
            acknowledged.addAll(applyAll(leader, 100, 150));
            awaitAllEqual(cluster, acknowledged);

            Member leaving = cluster.running().stream().filter(m -> m != leader && m != newcomer).findFirst().orElseThrow();
            assertTrue(await(done -> leader.node.removePeer(leaving.peer, done)).isOk(), "removing " + leaving.peer);
            cluster.stop(leaving);
            acknowledged.addAll(applyAll(leader, 150, 200));
            awaitAllEqual(cluster, acknowledged);

            Set<PeerId> expected = cluster.running().stream().map(m -> m.peer).collect(Collectors.toSet());
            assertEquals(3, expected.size());
            for (Member member : cluster.running()) {
                cluster.stop(member);
            }
            for (Member member : cluster.members()) {
                if (member != leaving) {
                    cluster.start(member);
                    // Checked as init leaves it, before any leader could send the node entries.
                    assertEquals(expected, Set.copyOf(((NodeImpl) member.node).getCurrentConf().getPeers()),
                            member.peer + " configuration after restart");
                }
            }
            Member newLeader = cluster.awaitLeader(LEADER_TIMEOUT);
            acknowledged.addAll(applyAll(newLeader, 200, 250));
            awaitAllEqual(cluster, acknowledged);
        }
    }

    private static Status await(Consumer<Closure> change) throws Exception {
        CompletableFuture<Status> done = new CompletableFuture<>();
        change.accept(done::complete);
        return done.get(APPLY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static void snapshotAll(RaftTestCluster cluster, List<Long> acknowledged) throws Exception {
        for (Member member : cluster.running()) {
            RaftTestCluster.await(member.peer + " applying " + acknowledged.size() + " operations", CATCH_UP_TIMEOUT,
                    () -> member.fsm.size() >= acknowledged.size());
            Status status = RaftTestCluster.snapshot(member, APPLY_TIMEOUT);
            assertTrue(status.isOk(), member.peer + " snapshot: " + status);
        }
    }
}
