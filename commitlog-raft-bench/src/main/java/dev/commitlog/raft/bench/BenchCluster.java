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
 * nodes. With the RocksDB contenders each node opens its own storage under its log URI, as JRaft
 * does; with {@link Contender#MEMORY} each node keeps its entries in a {@link MemoryLogStorage}.
 * Every node has the same {@link RaftOptions} ({@code sync} on) and no snapshots.
 *
 * <p>A started cluster can be {@linkplain #stop stopped} cleanly and {@linkplain #restart
 * restarted} on the same directories and ports with new storages over the same files: how the
 * benchmark times a reopen. Called from one thread, except {@link #leader}, which the load's
 * threads call while the nodes run.
 */
final class BenchCluster {
    /**
     * The election timeout up to {@link #ELECTION_TIMEOUT_NODES} nodes: long enough that heartbeats
     * of 24 groups x 3 replicas on two busy cores do not trigger elections.
     */
    static final int ELECTION_TIMEOUT_MS = 1000;
    /** The grid's largest cell, 24 groups x 3 replicas, which two cores carry at the 1 s timeout. */
    static final int ELECTION_TIMEOUT_NODES = 72;
    /**
     * JRaft's disruptors preallocate their rings (four per node); 16384 slots each (the default)
     * times 300 nodes is gigabytes of events. 1024 covers the benchmark's in-flight count per group
     * with room to spare.
     */
    static final int DISRUPTOR_BUFFER_SIZE = 1024;
    /** Ports tried per host before the cell fails. */
    private static final int BIND_ATTEMPTS = 5;
    /** How long a restarting host waits for its own port, which it released a moment ago, to bind again. */
    private static final Duration REBIND_TIMEOUT = Duration.ofSeconds(10);
    /** How long {@link #settledLastIndexes} waits for the replicas of each group to agree. */
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Worker threads of JRaft's shared election and vote timers (JRaft's default: one per core). A
     * node's pre-vote and vote run on these threads and first connect to each peer with a blocking
     * ping (up to JRaft's 1 s connect timeout); with 300 nodes on two threads, a few slow pings
     * stall every other node's election.
     */
    static final int SHARED_ELECTION_TIMER_WORKERS = 16;

    /**
     * The most threads of JRaft's process-wide closure pool (JRaft's default: 64). Each append on a
     * leader wakes every replicator waiting for new entries through that pool, and it rejects work
     * when all its threads are busy: 100 leaders have 200 replicators, and a rejection thrown out
     * of JRaft's append path left a replicator's lock held, after which the node's step-down waited
     * on it for good. 1,024 covers 256 groups x 4 followers; threads are made only when needed.
     */
    static final int CLOSURE_POOL_MAX_THREADS = 1024;

    /*
     * System properties JRaft and Bolt read once, when their classes load (after this class's first
     * use); a value given on the command line wins. Bolt's connection heartbeat is off: every host
     * is in this JVM on loopback, so a connection dies only with the JVM, and with 300 nodes on two
     * starved cores its 1 s heartbeat deadline closed live connections (and with them votes and
     * appends in flight) until no group of 100 could keep a leader.
     */
    static {
        setIfAbsent("jraft.timer.global_election_timer_workers", Integer.toString(SHARED_ELECTION_TIMER_WORKERS));
        setIfAbsent("jraft.timer.global_vote_timer_workers", Integer.toString(SHARED_ELECTION_TIMER_WORKERS));
        setIfAbsent("jraft.closure.threadpool.size.max", Integer.toString(CLOSURE_POOL_MAX_THREADS));
        setIfAbsent("bolt.tcp.heartbeat.switch", "false");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    private final Contender contender;
    private final Path root;
    private final List<Host> hosts = new ArrayList<>();
    private final int groups;
    private final Configuration conf = new Configuration();
    private boolean running;

    /** One host: its RPC server, its shared log (commit-log contenders) and its node of each group. */
    private static final class Host {
        /** Chosen when its RPC server first listens; kept across a restart (the peer is in the group's configuration). */
        PeerId peer;
        final Path dir;
        RpcServer rpcServer;
        boolean rpcStarted;
        RaftCommitLog log;
        RecordingServiceFactory factory;
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

    int nodeCount() {
        return hosts.size() * groups;
    }

    /**
     * Starts every host and its nodes, host after host; then waits up to {@code leaderTimeout}
     * until each group has a leader. The timeout runs from the last node's start: starting
     * hundreds of nodes (each opening its storage) takes as long as it takes.
     */
    void start(Duration leaderTimeout) throws IOException, InterruptedException {
        if (contender.rocksDb()) {
            RocksDbWalSyncs.install();
        }
        // Every RPC server listens before any node starts, so that no node's first elections and
        // replicator connections find a peer host still closed.
        for (Host host : hosts) {
            Files.createDirectories(host.dir);
            listenOnFreePort(host);
        }
        hosts.forEach(h -> conf.addPeer(h.peer));
        running = true;
        for (Host host : hosts) {
            startNodes(host);
        }
        awaitLeaders(System.nanoTime() + leaderTimeout.toNanos(), leaderTimeout, null);
    }

    /**
     * Each node's last log index as its storage reports it (what the storage holds durably), host
     * by host, group by group; first waiting up to {@link #SETTLE_TIMEOUT} until the replicas of
     * every group report the same, so that followers have taken what their leader sent. If they do
     * not settle, the indexes are taken as they are: each is still what that storage held.
     */
    long[][] settledLastIndexes() throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
        while (true) {
            long[][] last = storageLastIndexes();
            if (agree(last) || System.nanoTime() > deadline) {
                return last;
            }
            Thread.sleep(10);
        }
    }

    private long[][] storageLastIndexes() {
        long[][] last = new long[hosts.size()][groups];
        for (int h = 0; h < hosts.size(); h++) {
            for (int g = 0; g < groups; g++) {
                last[h][g] = storage(hosts.get(h), g).getLastLogIndex();
            }
        }
        return last;
    }

    private boolean agree(long[][] last) {
        for (int g = 0; g < groups; g++) {
            for (long[] host : last) {
                if (host[g] != last[0][g]) {
                    return false;
                }
            }
        }
        return true;
    }

    private LogStorage storage(Host host, int g) {
        String uri = logUri(host, g);
        LogStorage storage = host.factory == null ? null : host.factory.storage(uri);
        if (storage == null) {
            throw new IllegalStateException("no log storage was made for " + uri);
        }
        return storage;
    }

    /**
     * The durations of a restart: from starting the first node to the last node's start returning
     * (every node inited, its storage loaded), and to every group having a leader with every storage
     * holding at least what it held before the stop.
     */
    record Reopening(long initNanos, long openNanos) {
    }

    /**
     * Restarts a {@linkplain #stop stopped} cluster on the same directories and ports: RPC servers
     * first (not timed, as in {@link #start}), then each host's shared log (commit-log contenders)
     * and nodes, host after host, timed from the first node's start. Done when every group has a
     * leader and every node's new storage reports a last index at least {@code before[host][group]}
     * (a storage that loads lazily must have loaded its group by then). The timeout runs from the
     * last node's start, as in {@link #start}; at it, an exception says which group or node is missing.
     */
    Reopening restart(long[][] before, Duration timeout) throws IOException, InterruptedException {
        if (running) {
            throw new IllegalStateException("restart of a running cluster; stop it first");
        }
        for (Host host : hosts) {
            listenOnOwnPort(host);
        }
        running = true;
        long t0 = System.nanoTime();
        for (Host host : hosts) {
            startNodes(host);
        }
        long inited = System.nanoTime();
        awaitLeaders(inited + timeout.toNanos(), timeout, before);
        return new Reopening(inited - t0, System.nanoTime() - t0);
    }

    /**
     * Waits until every group has exactly one leader and, when {@code before} is given, every
     * node's storage holds at least that many entries; throws naming what is missing at the deadline.
     */
    private void awaitLeaders(long deadline, Duration timeout, long[][] before) throws InterruptedException {
        for (int g = 0; g < groups; g++) {
            while (leader(g) == null) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(leaderless() + " of " + groups + " groups of " + contender.label()
                            + " have no leader " + timeout + " after the last of " + nodeCount() + " nodes started ("
                            + hosts.size() + " replicas; first without one: " + groupId(g) + ")");
                }
                Thread.sleep(10);
            }
        }
        if (before == null) {
            return;
        }
        for (int h = 0; h < hosts.size(); h++) {
            for (int g = 0; g < groups; g++) {
                long last;
                while ((last = storage(hosts.get(h), g).getLastLogIndex()) < before[h][g]) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(groupId(g) + " on " + hosts.get(h).peer + " of " + contender.label()
                                + " holds entries up to " + last + " " + timeout + " after the restart, " + before[h][g]
                                + " before it");
                    }
                    Thread.sleep(10);
                }
            }
        }
    }

    private int leaderless() {
        int n = 0;
        for (int g = 0; g < groups; g++) {
            if (leader(g) == null) {
                n++;
            }
        }
        return n;
    }

    /**
     * Starts the host's RPC server on a free loopback port. The port is free when chosen but may be
     * taken by another socket before the server binds it, so a failed bind tries another port.
     */
    private static void listenOnFreePort(Host host) {
        for (int attempt = 1; ; attempt++) {
            host.peer = new PeerId("127.0.0.1", freePort());
            IllegalStateException failure = tryListen(host);
            if (failure == null) {
                return;
            }
            if (attempt == BIND_ATTEMPTS) {
                throw new IllegalStateException("RPC server on " + host.peer + " did not start (" + BIND_ATTEMPTS
                        + " ports tried)", failure);
            }
        }
    }

    /** Starts the host's RPC server on the port it had: the peer id is in every group's configuration. */
    private static void listenOnOwnPort(Host host) throws InterruptedException {
        long deadline = System.nanoTime() + REBIND_TIMEOUT.toNanos();
        while (true) {
            IllegalStateException failure = tryListen(host);
            if (failure == null) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("RPC server on " + host.peer + " did not start again within "
                        + REBIND_TIMEOUT + " (another socket holds the port?)", failure);
            }
            Thread.sleep(100);
        }
    }

    /** Null when the host's server listens on {@code host.peer}; the failure otherwise. */
    private static IllegalStateException tryListen(Host host) {
        host.rpcServer = RaftRpcServerFactory.createRaftRpcServer(host.peer.getEndpoint());
        try {
            if (host.rpcServer.init(null)) {
                host.rpcStarted = true;
                return null;
            }
            return new IllegalStateException("RPC server init returned false");
        } catch (IllegalStateException e) {
            return e;   // Bolt throws "Failed to start the Server!" when the bind fails
        }
    }

    private JRaftServiceFactory serviceFactory(Host host) throws IOException {
        if (contender.commitLog()) {
            host.log = RaftCommitLog.open(CommitLogConfig.builder(host.dir.resolve("commitlog"))
                    .syncMode(contender.syncMode()).build());
            return new CommitLogJRaftServiceFactory(host.log);
        }
        return switch (contender) {
            case ROCKSDB -> DefaultJRaftServiceFactory.newInstance();
            case ROCKSDB_SEGMENT -> new RocksDbSegmentServiceFactory();
            case MEMORY -> new DefaultJRaftServiceFactory() {
                @Override
                public LogStorage createLogStorage(String uri, RaftOptions raftOptions) {
                    return new MemoryLogStorage();
                }
            };
            case COMMITLOG_ADAPTIVE, COMMITLOG_BATCH -> throw new IllegalStateException("handled above: " + contender);
        };
    }

    private void startNodes(Host host) throws IOException {
        host.factory = new RecordingServiceFactory(serviceFactory(host));
        for (int g = 0; g < groups; g++) {
            // RocksDB creates only the last directory of its path.
            Files.createDirectories(host.dir.resolve(groupId(g)));
            NodeOptions options = nodeOptions(host.factory, conf, electionTimeoutMs(nodeCount()));
            options.setLogUri(logUri(host, g));
            options.setRaftMetaUri(host.dir.resolve(groupId(g)).resolve("meta").toString());
            RaftGroupService service = new RaftGroupService(groupId(g), host.peer, options, host.rpcServer, true);
            Node node = service.start(false);
            if (node == null) {
                throw new IllegalStateException(groupId(g) + " on " + host.peer + " did not start");
            }
            host.services.add(service);
            host.nodes.add(node);
        }
    }

    private static String logUri(Host host, int g) {
        return host.dir.resolve(groupId(g)).resolve("log").toString();
    }

    /**
     * {@link #ELECTION_TIMEOUT_MS} up to {@link #ELECTION_TIMEOUT_NODES} nodes in the JVM, longer in
     * proportion above (4.2 s at 300 nodes): a leader heartbeats each follower every tenth of the
     * timeout, so the heartbeats per second of all groups stay what two cores carry at 72 nodes,
     * and a leader is not deposed because the process was too busy to answer within 1 s.
     */
    static int electionTimeoutMs(int nodes) {
        return Math.max(ELECTION_TIMEOUT_MS, ELECTION_TIMEOUT_MS * nodes / ELECTION_TIMEOUT_NODES);
    }

    /** The options every node of every contender gets at a cell; only the service factory differs. */
    static NodeOptions nodeOptions(JRaftServiceFactory factory, Configuration conf, int electionTimeoutMs) {
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
        options.setElectionTimeoutMs(electionTimeoutMs);
        // No snapshot URI: no snapshots during a measurement.
        options.setSnapshotIntervalSecs(0);
        // One timer thread set for all nodes, not four per node: 300 nodes on two cores.
        options.setSharedTimerPool(true);
        options.setSharedElectionTimer(true);
        options.setSharedVoteTimer(true);
        options.setSharedStepDownTimer(true);
        options.setSharedSnapshotTimer(true);
        return options;
    }

    /**
     * The node currently leading group {@code g}, or null while there is none. Reads each node's
     * state without its lock ({@code isLeader(false)}): a node whose lock is held for good (JRaft
     * 1.4.1 can leave a replicator's lock held when its executors reject work, and a step-down then
     * waits on it with the node's lock held) must not stop the leader wait's timeout from firing.
     */
    Node leader(int g) {
        Node found = null;
        for (Host host : hosts) {
            Node node = host.nodes.get(g);
            if (node.isLeader(false)) {
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
        if (contender.rocksDb()) {
            return RocksDbWalSyncs.count();
        }
        long sum = 0;
        for (Host host : hosts) {
            sum += host.log == null ? 0 : host.log.log().metrics().flushes();
        }
        return sum;
    }

    /** The cluster's directory: every host's logs, RocksDBs and Raft meta files. */
    Path root() {
        return root;
    }

    /**
     * Shuts every node down and waits for it (JRaft shuts its log storage down with it), then the
     * RPC servers and the shared logs, whatever of them a start or restart that failed half-way
     * left running. Nothing is deleted.
     */
    void stop() throws InterruptedException {
        running = false;
        for (Host host : hosts) {
            host.services.forEach(RaftGroupService::shutdown);
        }
        for (Host host : hosts) {
            for (RaftGroupService service : host.services) {
                service.join();
            }
            host.services.clear();
            host.nodes.clear();
            if (host.rpcStarted) {
                host.rpcServer.shutdown();
                host.rpcStarted = false;
            }
            if (host.log != null) {
                host.log.close();
                host.log = null;
            }
        }
    }

    /** Stops the cluster if it runs, then deletes its data. */
    void stopAndDelete() throws InterruptedException {
        stop();
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
