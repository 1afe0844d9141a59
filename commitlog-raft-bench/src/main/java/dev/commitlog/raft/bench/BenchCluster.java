package dev.commitlog.raft.bench;

import com.alipay.sofa.jraft.JRaftServiceFactory;
import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.RaftGroupService;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.core.DefaultJRaftServiceFactory;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.NodeOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.rpc.RaftRpcServerFactory;
import com.alipay.sofa.jraft.rpc.RpcServer;
import com.alipay.sofa.jraft.storage.LogStorage;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.raft.CommitLogJRaftServiceFactory;
import dev.commitlog.raft.RaftCommitLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One cell's cluster: {@code replicas} hosts in this JVM on loopback, each one RPC server shared by
 * its node of every group, and (commit-log contenders) one {@link RaftCommitLog} shared by those
 * nodes. With RocksDB each node opens its own RocksDB under its log URI, as JRaft does by default;
 * with {@link Contender#MEMORY} each node keeps its entries in a {@link MemoryLogStorage}.
 * Every node has the same {@link RaftOptions} ({@code sync} on) and no snapshots.
 */
final class BenchCluster {
    /** Long enough that heartbeats of 24 groups x 3 replicas on two busy cores do not trigger elections. */
    static final int ELECTION_TIMEOUT_MS = 1000;
    /**
     * JRaft's disruptors preallocate their rings (four per node); 16384 slots each (the default)
     * times 72 nodes is hundreds of MB of events. 1024 covers the benchmark's largest in-flight count
     * per group with room to spare.
     */
    static final int DISRUPTOR_BUFFER_SIZE = 1024;
    /** Ports tried per host before the cell fails. */
    private static final int BIND_ATTEMPTS = 5;

    private final Contender contender;
    private final Path root;
    private final List<Host> hosts = new ArrayList<>();
    private final int groups;

    /** One host: its RPC server, its shared log (commit-log contenders) and its node of each group. */
    private static final class Host {
        /** Chosen when its RPC server starts listening. */
        PeerId peer;
        final Path dir;
        RpcServer rpcServer;
        boolean rpcStarted;
        RaftCommitLog log;
        final List<RaftGroupService> services = new ArrayList<>();
        final List<Node> nodes = new ArrayList<>();

        Host(Path dir) {
            this.dir = dir;
        }
    }

    BenchCluster(Contender contender, Path root, int replicas, int groups) {
        this.contender = contender;
        this.root = root;
        this.groups = groups;
        for (int i = 0; i < replicas; i++) {
            hosts.add(new Host(root.resolve("host-" + i)));
        }
    }

    static String groupId(int g) {
        return "bench-group-" + g;
    }

    int groups() {
        return groups;
    }

    /** Starts every host and its nodes; then waits until each group has a leader. */
    void start(Duration leaderTimeout) throws IOException, InterruptedException {
        if (contender == Contender.ROCKSDB) {
            RocksDbWalSyncs.install();
        }
        // Every RPC server listens before any node starts, so that no node's first elections and
        // replicator connections find a peer host still closed.
        for (Host host : hosts) {
            Files.createDirectories(host.dir);
            listen(host);
        }
        Configuration conf = new Configuration();
        hosts.forEach(h -> conf.addPeer(h.peer));
        for (Host host : hosts) {
            startNodes(host, conf);
        }
        long deadline = System.nanoTime() + leaderTimeout.toNanos();
        for (int g = 0; g < groups; g++) {
            while (leader(g) == null) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no leader in " + groupId(g) + " of " + contender.label() + " within "
                            + leaderTimeout + " (" + hosts.size() + " replicas, " + groups + " groups)");
                }
                Thread.sleep(10);
            }
        }
    }

    /**
     * Starts the host's RPC server on a free loopback port. The port is free when chosen but may be
     * taken by another socket before the server binds it, so a failed bind tries another port.
     */
    private static void listen(Host host) {
        for (int attempt = 1; ; attempt++) {
            host.peer = new PeerId("127.0.0.1", freePort());
            host.rpcServer = RaftRpcServerFactory.createRaftRpcServer(host.peer.getEndpoint());
            RuntimeException failure = null;
            try {
                if (host.rpcServer.init(null)) {
                    host.rpcStarted = true;
                    return;
                }
            } catch (IllegalStateException e) {
                failure = e;   // Bolt throws "Failed to start the Server!" when the bind fails
            }
            if (attempt == BIND_ATTEMPTS) {
                throw new IllegalStateException("RPC server on " + host.peer + " did not start (" + BIND_ATTEMPTS
                        + " ports tried)", failure);
            }
        }
    }

    private void startNodes(Host host, Configuration conf) throws IOException {
        JRaftServiceFactory factory;
        if (contender.commitLog()) {
            host.log = RaftCommitLog.open(CommitLogConfig.builder(host.dir.resolve("commitlog"))
                    .syncMode(contender.syncMode()).build());
            factory = new CommitLogJRaftServiceFactory(host.log);
        } else if (contender == Contender.MEMORY) {
            factory = new DefaultJRaftServiceFactory() {
                @Override
                public LogStorage createLogStorage(String uri, RaftOptions raftOptions) {
                    return new MemoryLogStorage();
                }
            };
        } else {
            factory = DefaultJRaftServiceFactory.newInstance();
        }
        for (int g = 0; g < groups; g++) {
            Path groupDir = host.dir.resolve(groupId(g));
            // RocksDB creates only the last directory of its path.
            Files.createDirectories(groupDir);
            NodeOptions options = nodeOptions(factory, conf);
            options.setLogUri(groupDir.resolve("log").toString());
            options.setRaftMetaUri(groupDir.resolve("meta").toString());
            RaftGroupService service = new RaftGroupService(groupId(g), host.peer, options, host.rpcServer, true);
            Node node = service.start(false);
            if (node == null) {
                throw new IllegalStateException(groupId(g) + " on " + host.peer + " did not start");
            }
            host.services.add(service);
            host.nodes.add(node);
        }
    }

    /** The options every node of every contender gets; only the service factory differs. */
    static NodeOptions nodeOptions(JRaftServiceFactory factory, Configuration conf) {
        RaftOptions raftOptions = new RaftOptions();
        raftOptions.setSync(true);
        raftOptions.setDisruptorBufferSize(DISRUPTOR_BUFFER_SIZE);
        // JRaft's default gives each RocksDB its own statistics object, which would replace the one
        // RocksDbWalSyncs registers; that one has the same (default) level, so the cost is the same.
        // The commit log ignores this option.
        raftOptions.setOpenStatistics(false);
        NodeOptions options = new NodeOptions();
        options.setRaftOptions(raftOptions);
        options.setServiceFactory(factory);
        options.setFsm(new AckingStateMachine());
        options.setInitialConf(conf.copy());
        options.setElectionTimeoutMs(ELECTION_TIMEOUT_MS);
        // No snapshot URI: no snapshots during a measurement.
        options.setSnapshotIntervalSecs(0);
        // One timer thread set for all nodes, not four per node: 72 nodes on two cores.
        options.setSharedTimerPool(true);
        options.setSharedElectionTimer(true);
        options.setSharedVoteTimer(true);
        options.setSharedStepDownTimer(true);
        options.setSharedSnapshotTimer(true);
        return options;
    }

    /** The node currently leading group {@code g}, or null while there is none. */
    Node leader(int g) {
        Node found = null;
        for (Host host : hosts) {
            Node node = host.nodes.get(g);
            if (node.isLeader()) {
                if (found != null) {
                    return null;   // two leaders of different terms for a moment: wait for the old one to step down
                }
                found = node;
            }
        }
        return found;
    }

    /** Syncs made so far by the storages of every host (see {@link RocksDbWalSyncs} for RocksDB; none in memory). */
    long fsyncs() {
        if (contender == Contender.ROCKSDB) {
            return RocksDbWalSyncs.count();
        }
        long sum = 0;
        for (Host host : hosts) {
            sum += host.log == null ? 0 : host.log.log().metrics().flushes();
        }
        return sum;
    }

    /** Stops every node, RPC server and log, then deletes the cluster's data. */
    void stopAndDelete() throws InterruptedException {
        for (Host host : hosts) {
            host.services.forEach(RaftGroupService::shutdown);
        }
        for (Host host : hosts) {
            for (RaftGroupService service : host.services) {
                service.join();
            }
            if (host.rpcStarted) {
                host.rpcServer.shutdown();
            }
            if (host.log != null) {
                host.log.close();
            }
        }
        deleteTree(root);
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete benchmark data in " + dir, e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }
}
