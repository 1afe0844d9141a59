package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.RaftGroupService;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.NodeOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.rpc.RaftRpcServerFactory;
import com.alipay.sofa.jraft.rpc.RpcServer;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.raft.RaftTestCluster.Member;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several Raft groups on three hosts, each host one process-like unit: one RPC server and one
 * shared {@link RaftCommitLog} for all the groups it serves. Groups replicate concurrently, so
 * their records interleave in each host's log; restarting a host replays every group from it.
 */
@Timeout(60)
class MultiGroupClusterTest {
    private static final int HOSTS = 3;
    private static final int GROUPS = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path directory;

    /** One host: its RPC server, its shared log, and its node (a {@link Member}) of every group. */
    private static final class Host {
        final PeerId peer;
        final Path dir;
        RaftCommitLog log;
        RpcServer rpcServer;
        final List<Member> members = new ArrayList<>();

        Host(PeerId peer, Path dir) {
            this.peer = peer;
            this.dir = dir;
        }
    }

    private final List<Host> hosts = new ArrayList<>();
    private final Configuration conf = new Configuration();

    private static String group(int g) {
        return "group-" + g;
    }

    private void start(Host host) throws IOException {
        host.log = RaftCommitLog.open(CommitLogConfig.builder(host.dir.resolve("commitlog")).syncMode(SyncMode.ADAPTIVE)
                .segmentSize(8 * 1024 * 1024).build());
        host.rpcServer = RaftRpcServerFactory.createRaftRpcServer(host.peer.getEndpoint());
        host.members.clear();
        CommitLogJRaftServiceFactory factory = new CommitLogJRaftServiceFactory(host.log);
        for (int g = 0; g < GROUPS; g++) {
            Path groupDir = host.dir.resolve(group(g));
            Member member = new Member(host.peer, groupDir, conf);
            member.log = host.log;
            member.fsm = new OpsStateMachine();
            RaftOptions raftOptions = new RaftOptions();
            raftOptions.setSync(true);
            NodeOptions options = new NodeOptions();
            options.setRaftOptions(raftOptions);
            options.setServiceFactory(factory);
            options.setFsm(member.fsm);
            options.setInitialConf(conf.copy());
            options.setElectionTimeoutMs(RaftTestCluster.ELECTION_TIMEOUT_MS);
            options.setLogUri(groupDir.resolve("log").toString());
            options.setRaftMetaUri(groupDir.resolve("meta").toString());
            member.service = new RaftGroupService(group(g), host.peer, options, host.rpcServer, true);
            member.node = member.service.start(false);
            assertTrue(member.node != null, group(g) + " on " + host.peer + " started");
            host.members.add(member);
        }
        assertTrue(host.rpcServer.init(null), "RPC server on " + host.peer);
    }

    private static void stop(Host host) throws InterruptedException {
        if (host.log == null) {
            return;
        }
        for (Member member : host.members) {
            member.service.shutdown();
        }
        for (Member member : host.members) {
            member.service.join();
            member.node = null;
        }
        host.rpcServer.shutdown();
        host.log.close();
        host.log = null;
    }

    private Member awaitLeader(int g) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            List<Member> leaders = hosts.stream().filter(h -> h.log != null).map(h -> h.members.get(g))
                    .filter(m -> m.node.isLeader()).toList();
            if (leaders.size() == 1) {
                return leaders.get(0);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no leader in " + group(g) + " within " + TIMEOUT);
    }

    /** Applies {@code count} operations to every group at once, group g's values offset by g * 1e6. */
    private void applyToAllGroups(List<List<Long>> acknowledged, int count) throws Exception {
        List<CompletableFuture<Void>> groups = new ArrayList<>();
        for (int g = 0; g < GROUPS; g++) {
            Member leader = awaitLeader(g);
            long from = g * 1_000_000L + acknowledged.get(g).size();
            groups.add(CompletableFuture.runAsync(() -> {
                try {
                    List<Status> statuses = RaftTestCluster.apply(leader, from, from + count, TIMEOUT);
                    for (Status status : statuses) {
                        assertTrue(status.isOk(), status.toString());
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }));
        }
        for (int g = 0; g < GROUPS; g++) {
            groups.get(g).get();
            long from = g * 1_000_000L + acknowledged.get(g).size();
            acknowledged.get(g).addAll(LongStream.range(from, from + count).boxed().toList());
        }
    }

    private void awaitAllEqual(List<List<Long>> acknowledged) throws InterruptedException {
        for (Host host : hosts) {
            for (int g = 0; g < GROUPS; g++) {
                Member member = host.members.get(g);
                List<Long> expected = acknowledged.get(g);
                RaftTestCluster.await(group(g) + " on " + host.peer, TIMEOUT, () -> member.fsm.size() >= expected.size());
                assertEquals(expected, member.fsm.ops(), group(g) + " on " + host.peer);
            }
        }
    }

    @Test
    void groupsShareEachHostsLogAndSurviveAHostRestart() throws Exception {
        List<Integer> ports = RaftTestCluster.freePorts(HOSTS);
        for (int i = 0; i < HOSTS; i++) {
            PeerId peer = new PeerId("127.0.0.1", ports.get(i));
            conf.addPeer(peer);
            hosts.add(new Host(peer, directory.resolve("host-" + i)));
        }
        try {
            for (Host host : hosts) {
                start(host);
            }
            List<List<Long>> acknowledged = new ArrayList<>();
            for (int g = 0; g < GROUPS; g++) {
                acknowledged.add(new ArrayList<>());
            }
            applyToAllGroups(acknowledged, 100);
            awaitAllEqual(acknowledged);

            // Restart the host that leads group 0: every group on it replays from the one shared log.
            Member groupZeroLeader = awaitLeader(0);
            Host restarted = hosts.stream().filter(h -> h.members.get(0) == groupZeroLeader).findFirst().orElseThrow();
            List<Long> lastIndexes = restarted.members.stream().map(m -> m.node.getLastLogIndex()).toList();
            stop(restarted);
            applyToAllGroups(acknowledged, 50);
            start(restarted);
            for (int g = 0; g < GROUPS; g++) {
                assertTrue(restarted.members.get(g).node.getLastLogIndex() >= lastIndexes.get(g),
                        group(g) + " on the restarted host reloads its log from the shared commit log");
            }
            awaitAllEqual(acknowledged);

            applyToAllGroups(acknowledged, 50);
            awaitAllEqual(acknowledged);
        } finally {
            for (Host host : hosts) {
                stop(host);
            }
        }
    }
}
