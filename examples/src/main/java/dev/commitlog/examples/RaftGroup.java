package dev.commitlog.examples;

import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.RaftGroupService;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.entity.Task;
import com.alipay.sofa.jraft.option.NodeOptions;
import com.alipay.sofa.jraft.rpc.RaftRpcServerFactory;
import com.alipay.sofa.jraft.rpc.RpcServer;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.raft.CommitLogJRaftServiceFactory;
import dev.commitlog.raft.RaftCommitLog;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Three Raft hosts on loopback in this JVM, each standing for a process: one RPC server and one
 * {@link RaftCommitLog} per host, shared by that host's node of every Raft group (here two groups,
 * {@code orders} and {@code accounts}; the log URI of each node is its group's key in the shared
 * log). Each group elects a leader, commits operations, and every node of it applies them.
 *
 * <p>Run it: {@code java -jar examples/target/commitlog-examples.jar raft [DIR]} (see
 * examples/README.md). The ports are free loopback ports picked at start.
 */
public final class RaftGroup {
    static final List<String> GROUPS = List.of("orders", "accounts");
    static final int HOSTS = 3;
    static final int OPERATIONS = 100;
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(20);

    private RaftGroup() {
    }

    public static void main(String[] args) throws Exception {
        try (ExampleDirectory directory = ExampleDirectory.of(args, "raft")) {
            run(directory.path(), System.out);
        }
    }

    /** One host: its RPC server, its shared log, and its node of each group. */
    private static final class Host {
        final PeerId peer;
        final RaftCommitLog log;
        final RpcServer rpcServer;
        final Map<String, RaftGroupService> services = new LinkedHashMap<>();
        final Map<String, CounterStateMachine> machines = new LinkedHashMap<>();

        Host(PeerId peer, Path directory, Configuration conf) throws IOException {
            this.peer = peer;
            this.log = RaftCommitLog.open(CommitLogConfig.builder(directory.resolve("commitlog")).syncMode(SyncMode.ADAPTIVE).build());
            this.rpcServer = RaftRpcServerFactory.createRaftRpcServer(peer.getEndpoint());
            CommitLogJRaftServiceFactory factory = new CommitLogJRaftServiceFactory(log); // every group's storage on the one log
            for (String group : GROUPS) {
                CounterStateMachine machine = new CounterStateMachine();
                NodeOptions options = new NodeOptions();
                options.setServiceFactory(factory);
                options.setLogUri(group); // the group's key in the shared log
                options.setRaftMetaUri(directory.resolve(group).resolve("meta").toString()); // term and vote stay JRaft's
                options.setFsm(machine);
                options.setInitialConf(conf.copy());
                options.setElectionTimeoutMs(600);
                RaftGroupService service = new RaftGroupService(group, peer, options, rpcServer, true);
                service.start(false); // the shared RPC server starts once, below
                services.put(group, service);
                machines.put(group, machine);
            }
            if (!rpcServer.init(null)) {
                throw new IllegalStateException("the RPC server on " + peer + " did not start");
            }
        }

        Node node(String group) {
            return services.get(group).getRaftNode();
        }

        /** Asks every node of the host to shut down. */
        void shutdownNodes() {
            services.values().forEach(RaftGroupService::shutdown);
        }

        /** Waits for the nodes (their log storages are shut down by then), then stops the RPC server and closes the shared log. */
        void stop() throws InterruptedException {
            for (RaftGroupService service : services.values()) {
                service.join();
            }
            rpcServer.shutdown();
            log.close();
        }
    }

    /** For each group: the leader's address and, per host, how many operations its node applied and their sum. */
    record Applied(Map<String, String> leaders, Map<String, List<Long>> applied, Map<String, List<Long>> sums) {
    }

    /** What {@link #main} does, in {@code directory}. */
    static Applied run(Path directory, PrintStream out) throws Exception {
        Configuration conf = new Configuration();
        for (int port : freePorts(HOSTS)) {
            conf.addPeer(new PeerId("127.0.0.1", port));
        }
        List<Host> hosts = new ArrayList<>();
        try {
            for (PeerId peer : conf.getPeers()) {
                hosts.add(new Host(peer, directory.resolve("host-" + peer.getPort()), conf));
            }
            out.println(HOSTS + " hosts on " + conf + ", each with one commit log shared by its nodes of " + GROUPS);
            Map<String, String> leaders = new LinkedHashMap<>();
            Map<String, List<Long>> applied = new LinkedHashMap<>();
            Map<String, List<Long>> sums = new LinkedHashMap<>();
            long expectedSum = (long) OPERATIONS * (OPERATIONS + 1) / 2;
            for (String group : GROUPS) {
                Node leader = awaitLeader(hosts, group);
                commit(leader, group);
                List<Long> counts = new ArrayList<>();
                List<Long> groupSums = new ArrayList<>();
                for (Host host : hosts) {
                    CounterStateMachine machine = host.machines.get(group);
                    await(() -> machine.applied() >= OPERATIONS, group + " on " + host.peer + " applying " + OPERATIONS + " operations");
                    counts.add(machine.applied());
                    groupSums.add(machine.sum());
                }
                if (!groupSums.stream().allMatch(sum -> sum == expectedSum)) {
                    throw new IllegalStateException(group + ": the nodes applied sums " + groupSums + ", not " + expectedSum);
                }
                leaders.put(group, leader.getNodeId().getPeerId().toString());
                applied.put(group, counts);
                sums.put(group, groupSums);
                out.println(group + ": leader " + leader.getNodeId().getPeerId() + "; " + OPERATIONS + " operations committed (each"
                        + " durable on a majority) and applied by all " + HOSTS + " nodes, each with sum " + expectedSum);
            }
            for (Host host : hosts) {
                out.println("host " + host.peer + ": its commit log holds both groups' entries, durable up to position "
                        + host.log.log().durablePosition());
            }
            return new Applied(leaders, applied, sums);
        } finally {
            // Every node first, then the servers: a node still running would keep calling the peers that went away.
            hosts.forEach(Host::shutdownNodes);
            for (Host host : hosts) {
                host.stop();
            }
        }
    }

    /** Applies operations 1 to {@link #OPERATIONS} on the leader and waits until each one is committed. */
    private static void commit(Node leader, String group) throws InterruptedException {
        CountDownLatch committed = new CountDownLatch(OPERATIONS);
        AtomicInteger failed = new AtomicInteger();
        for (long op = 1; op <= OPERATIONS; op++) {
            ByteBuffer data = ByteBuffer.allocate(Long.BYTES).putLong(0, op);
            leader.apply(new Task(data, (Status status) -> {
                if (!status.isOk()) {
                    failed.incrementAndGet();
                }
                committed.countDown();
            }));
        }
        if (!committed.await(TIMEOUT_NANOS, TimeUnit.NANOSECONDS) || failed.get() > 0) {
            throw new IllegalStateException(group + ": " + failed.get() + " of " + OPERATIONS + " operations failed or timed out"
                    + " (a leader change while they were in flight fails them; a real client retries on the new leader)");
        }
    }

    private static Node awaitLeader(List<Host> hosts, String group) throws InterruptedException {
        Node[] leader = new Node[1];
        await(() -> {
            List<Node> leaders = hosts.stream().map(host -> host.node(group)).filter(Node::isLeader).toList();
            leader[0] = leaders.size() == 1 ? leaders.get(0) : null;
            return leader[0] != null;
        }, group + " electing a leader");
        return leader[0];
    }

    private interface Condition {
        boolean holds();
    }

    private static void await(Condition condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after 20 s: " + what);
            }
            Thread.sleep(10);
        }
    }

    /** Loopback ports free now (each from a socket bound to port 0 and closed). */
    private static List<Integer> freePorts(int count) {
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < count) {
            try (ServerSocket socket = new ServerSocket(0)) {
                int port = socket.getLocalPort();
                if (!ports.contains(port)) {
                    ports.add(port);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return ports;
    }
}
