package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.RaftGroupService;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.entity.Task;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.NodeOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;

/**
 * Raft nodes of one group in this JVM on loopback, each with its own directory: a commit log
 * (through {@link CommitLogJRaftServiceFactory}), Raft meta and snapshots. A stopped node restarts
 * on the same directory and port, with a fresh state machine.
 */
final class RaftTestCluster implements AutoCloseable {
    static final String GROUP = "commitlog-raft-test";
    static final int ELECTION_TIMEOUT_MS = 600;
    static final Duration APPLY_TIMEOUT = Duration.ofSeconds(20);
    static final Duration CATCH_UP_TIMEOUT = Duration.ofSeconds(20);

    private final SyncMode syncMode;
    private final boolean snapshots;
    private final Configuration conf = new Configuration();
    private final Path root;
    private final Map<PeerId, Member> members = new LinkedHashMap<>();
    /** For nodes started from now on. */
    private int electionTimeoutMs = ELECTION_TIMEOUT_MS;

    /** One running (or stopped) node. */
    static final class Member {
        final PeerId peer;
        final Path dir;
        RaftCommitLog log;
        RaftGroupService service;
        Node node;
        OpsStateMachine fsm;
        /** The log storage the node's factory made last. */
        volatile CommitLogLogStorage storage;
        /** The configuration the node starts with when neither its log nor a snapshot has one. */
        final Configuration initialConf;

        Member(PeerId peer, Path dir, Configuration initialConf) {
            this.peer = peer;
            this.dir = dir;
            this.initialConf = initialConf;
        }

        boolean running() {
            return node != null;
        }
    }

    RaftTestCluster(Path root, int size, SyncMode syncMode, boolean snapshots) {
        this(root, freePorts(size), syncMode, snapshots);
    }

    /** Nodes on the given loopback ports: a cluster restarted in another process finds its peers where they were. */
    RaftTestCluster(Path root, List<Integer> ports, SyncMode syncMode, boolean snapshots) {
        this.syncMode = syncMode;
        this.snapshots = snapshots;
        for (int i = 0; i < ports.size(); i++) {
            conf.addPeer(new PeerId("127.0.0.1", ports.get(i)));
        }
        for (int i = 0; i < ports.size(); i++) {
            PeerId peer = new PeerId("127.0.0.1", ports.get(i));
            members.put(peer, new Member(peer, root.resolve("node-" + i), conf));
        }
        this.root = root;
    }

    /**
     * Sets the election timeout of the nodes started from now on. A leader keeps its lease for 90%
     * of it after it last heard from a majority: a test that needs a leader to go on taking tasks
     * after its followers stop must stop them within that.
     */
    void electionTimeout(Duration timeout) {
        electionTimeoutMs = Math.toIntExact(timeout.toMillis());
    }

    /**
     * A new node outside the group's configuration, not started: it starts with an empty
     * configuration and joins when the leader adds it ({@code Node.addPeer}).
     */
    Member newcomer() {
        int index = members.size();
        int port;
        do {
            port = freePort();
        } while (members.containsKey(new PeerId("127.0.0.1", port)));
        PeerId peer = new PeerId("127.0.0.1", port);
        Member member = new Member(peer, root.resolve("node-" + index), new Configuration());
        members.put(peer, member);
        return member;
    }

    static List<Integer> freePorts(int count) {
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < count) {
            int port = freePort();
            if (!ports.contains(port)) {
                ports.add(port);
            }
        }
        return ports;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void startAll() throws IOException {
        for (Member member : members.values()) {
            start(member);
        }
    }

    void start(Member member) throws IOException {
        if (member.running()) {
            throw new IllegalStateException(member.peer + " is running");
        }
        member.log = RaftCommitLog.open(commitLogConfig(member));
        member.fsm = new OpsStateMachine();

        RaftOptions raftOptions = new RaftOptions();
        raftOptions.setSync(true);
        NodeOptions options = new NodeOptions();
        options.setRaftOptions(raftOptions);
        RaftCommitLog log = member.log;
        options.setServiceFactory(new CommitLogJRaftServiceFactory(log) {
            @Override
            public com.alipay.sofa.jraft.storage.LogStorage createLogStorage(String uri, RaftOptions opts) {
                CommitLogLogStorage storage = (CommitLogLogStorage) super.createLogStorage(uri, opts);
                member.storage = storage;
                return storage;
            }
        });
        options.setFsm(member.fsm);
        options.setInitialConf(member.initialConf.copy());
        options.setElectionTimeoutMs(electionTimeoutMs);
        options.setLogUri(member.dir.resolve("log").toString());
        options.setRaftMetaUri(member.dir.resolve("meta").toString());
        if (snapshots) {
            options.setSnapshotUri(member.dir.resolve("snapshot").toString());
            // Snapshots only when a test asks for one (Node.snapshot).
            options.setSnapshotIntervalSecs(0);
        }
        member.service = new RaftGroupService(GROUP, member.peer, options);
        member.node = member.service.start();
        if (member.node == null) {
            throw new IllegalStateException("node " + member.peer + " did not start");
        }
    }

    private CommitLogConfig commitLogConfig(Member member) {
        return CommitLogConfig.builder(member.dir.resolve("commitlog")).syncMode(syncMode).segmentSize(8 * 1024 * 1024).build();
    }

    /**
     * The entries of a stopped member's log as its commit log holds them on disk: the log reopened
     * and replayed by a fresh storage, index {@code first} first.
     */
    List<LogEntry> entriesOnDisk(Member member) throws IOException {
        if (member.running()) {
            throw new IllegalStateException(member.peer + " is running: stop it before reading its log");
        }
        try (RaftCommitLog log = RaftCommitLog.open(commitLogConfig(member))) {
            RaftOptions raftOptions = new RaftOptions();
            raftOptions.setSync(true);
            CommitLogLogStorage storage = log.storage(member.dir.resolve("log").toString(), raftOptions);
            LogStorageOptions options = new LogStorageOptions();
            options.setConfigurationManager(new ConfigurationManager());
            options.setLogEntryCodecFactory(LogEntryV2CodecFactory.getInstance());
            if (!storage.init(options)) {
                throw new IllegalStateException("the log storage of " + member.peer + " does not initialize");
            }
            List<LogEntry> entries = new ArrayList<>();
            for (long index = storage.getFirstLogIndex(); index <= storage.getLastLogIndex(); index++) {
                entries.add(storage.getEntry(index));
            }
            storage.shutdown();
            return entries;
        }
    }

    /** Shuts the node down, waits for it, and closes its commit log. */
    void stop(Member member) throws InterruptedException {
        if (!member.running()) {
            return;
        }
        member.service.shutdown();
        member.service.join();
        member.log.close();
        member.node = null;
        member.service = null;
        member.log = null;
    }

    /**
     * Stops every running node, followers first and leaders last. Stopped in any other order, the
     * nodes still running may elect a leader for a new term, which logs its configuration entry on
     * them but not on the nodes already stopped, so logs compared on disk afterwards differ.
     */
    void stopAllLeaderLast() throws InterruptedException {
        List<Member> order = new ArrayList<>();
        List<Member> leaders = new ArrayList<>();
        for (Member member : running()) {
            (member.node.isLeader() ? leaders : order).add(member);
        }
        order.addAll(leaders);
        for (Member member : order) {
            stop(member);
        }
    }

    Member member(PeerId peer) {
        return members.get(peer);
    }

    List<Member> members() {
        return new ArrayList<>(members.values());
    }

    List<Member> running() {
        return members.values().stream().filter(Member::running).toList();
    }

    /** The running leader, once exactly one running node leads; fails after {@code timeout}. */
    Member awaitLeader(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<Member> leaders = running().stream().filter(m -> m.node.isLeader()).toList();
            if (leaders.size() == 1) {
                return leaders.get(0);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no leader within " + timeout);
    }

    /**
     * Applies operations {@code from} (inclusive) to {@code to} (exclusive) on {@code leader} and
     * waits for every closure; returns the statuses in operation order.
     */
    static List<Status> apply(Member leader, long from, long to, Duration timeout) throws Exception {
        List<CompletableFuture<Status>> futures = submit(leader, from, to);
        List<Status> statuses = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        for (CompletableFuture<Status> future : futures) {
            statuses.add(future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
        }
        return statuses;
    }

    /** Applies the operations and returns them, after checking that every closure reports success. */
    static List<Long> applyAll(Member leader, long from, long to) throws Exception {
        List<Status> statuses = apply(leader, from, to, APPLY_TIMEOUT);
        for (int i = 0; i < statuses.size(); i++) {
            Status status = statuses.get(i);
            assertTrue(status.isOk(), "operation " + (from + i) + ": " + status);
        }
        return LongStream.range(from, to).boxed().toList();
    }

    /** Waits until every running node applied as many operations as were acknowledged; then each must hold exactly those. */
    static void awaitAllEqual(RaftTestCluster cluster, List<Long> acknowledged) throws InterruptedException {
        for (Member member : cluster.running()) {
            await(member.peer + " applying " + acknowledged.size() + " operations", CATCH_UP_TIMEOUT,
                    () -> member.fsm.size() >= acknowledged.size());
        }
        for (Member member : cluster.running()) {
            assertEquals(acknowledged, member.fsm.ops(), member.peer + " state machine");
        }
    }

    /** Submits operations {@code from} (inclusive) to {@code to} (exclusive) to {@code leader}; each future completes with its closure's status. */
    static List<CompletableFuture<Status>> submit(Member leader, long from, long to) {
        List<CompletableFuture<Status>> futures = new ArrayList<>();
        for (long op = from; op < to; op++) {
            CompletableFuture<Status> future = new CompletableFuture<>();
            ByteBuffer data = ByteBuffer.allocate(Long.BYTES).putLong(0, op);
            leader.node.apply(new Task(data, future::complete));
            futures.add(future);
        }
        return futures;
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    /** Runs {@code Node.snapshot} on the member and waits for its status. */
    static Status snapshot(Member member, Duration timeout) throws Exception {
        CompletableFuture<Status> done = new CompletableFuture<>();
        member.node.snapshot(done::complete);
        return done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        try {
            for (Member member : members.values()) {
                stop(member);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
