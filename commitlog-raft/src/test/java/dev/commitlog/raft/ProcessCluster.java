package dev.commitlog.raft;

import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;
import java.util.stream.Stream;

/**
 * A three-node Raft group of {@link RaftNodeChild} processes on loopback, each node its own JVM
 * and directory, and an {@link OpsClient} in this JVM that submits to whichever node leads. Nodes
 * die by SIGKILL only; each restart runs on the same directory and port, with a sync mode drawn at
 * random (batch, adaptive, group), and its log storage is checked against what it acknowledged
 * before the kill ({@link AcknowledgedLog}).
 */
final class ProcessCluster implements AutoCloseable {
    static final int NODES = 3;
    static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    static final Duration CONVERGE_TIMEOUT = Duration.ofSeconds(60);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);
    private static final SyncMode[] MODES = {SyncMode.BATCH, SyncMode.ADAPTIVE, SyncMode.GROUP};
    private static final int CLIENT_WINDOW = 64;

    private final Path root;
    private final boolean snapshots;
    private final Random random;
    private final List<Integer> ports = RaftTestCluster.freePorts(NODES);
    private final NodeProcess[] nodes = new NodeProcess[NODES];
    private final AcknowledgedLog[] storages = new AcknowledgedLog[NODES];
    private final List<String> errors = new ArrayList<>();
    final OpsClient client;
    private final OpsCheck check = new OpsCheck();
    /** Operations that can never be committed (a test's doomed tail); none may ever be applied. */
    private volatile LongPredicate neverCommitted = op -> false;
    private int lives;

    ProcessCluster(Path root, boolean snapshots, Random random) throws IOException {
        this.root = Files.createDirectories(root);
        this.snapshots = snapshots;
        this.random = random;
        for (int i = 0; i < NODES; i++) {
            storages[i] = new AcknowledgedLog("node " + i);
        }
        Files.createDirectories(root.resolve("stderr"));
        this.client = new OpsClient(this::leaderTarget, CLIENT_WINDOW);
    }

    private OpsClient.Target leaderTarget() {
        int leader = leader();
        return leader < 0 ? null : nodes[leader];
    }

    /**
     * A cluster of three new nodes in {@code root}, started, with a leader, and the client writing:
     * where every kill test begins. Closed again if the start fails.
     */
    static ProcessCluster started(Path root, boolean snapshots, Random random) throws Exception {
        ProcessCluster cluster = new ProcessCluster(root, snapshots, random);
        try {
            cluster.startAll();
            cluster.awaitLeader(START_TIMEOUT);
            cluster.client.resume();
            return cluster;
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    void startAll() throws Exception {
        start(0, 1, 2);
    }

    /** Starts the nodes on their directories and ports and waits until they run; each log storage is checked as it opens. */
    void start(int... indexes) throws Exception {
        for (int i : indexes) {
            launch(i, null);
        }
        for (int i : indexes) {
            awaitStarted(i);
        }
    }

    /**
     * Starts node {@code i} without waiting for it: the returned process's {@link NodeProcess#watchedBegin()}
     * is counted down when it first begins a log storage call of kind {@code watch}.
     */
    NodeProcess launch(int i, StorageCall.Kind watch) throws IOException {
        if (nodes[i] != null && nodes[i].alive()) {
            throw new IllegalStateException("node " + i + " is running");
        }
        if (nodes[i] != null) {
            errors.addAll(nodes[i].errors()); // what went wrong in the life that ended
        }
        SyncMode mode = MODES[random.nextInt(MODES.length)];
        List<String> command = RaftChildJvm.command(RaftNodeChild.class, root.toString(), Integer.toString(i),
                String.join(",", ports.stream().map(String::valueOf).toList()), mode.name(), Boolean.toString(snapshots));
        Path stderr = root.resolve("stderr").resolve("node-" + i + "-life-" + (lives++) + ".err");
        nodes[i] = NodeProcess.start(i, command, stderr, storages[i], client, watch);
        return nodes[i];
    }

    void awaitStarted(int i) throws InterruptedException {
        nodes[i].awaitReady(START_TIMEOUT);
        assertHealthy();
    }

    /** SIGKILL, then every line it printed is read. */
    void kill(int i) throws InterruptedException {
        nodes[i].kill();
    }

    /** Deletes a killed node's directory (commit log, Raft meta, snapshots): it restarts as a new, empty node. */
    void wipe(int i) throws IOException {
        if (nodes[i].alive()) {
            throw new IllegalStateException("node " + i + " is running");
        }
        Path dir = RaftNodeChild.nodeDirectory(root, i);
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
        storages[i].wiped();
    }

    NodeProcess node(int i) {
        return nodes[i];
    }

    /** The log node {@code i}'s storage acknowledged last (its model, fed by what the child printed). */
    TermLog acknowledgedLog(int i) {
        return storages[i].acknowledged();
    }

    /** The running node that leads in the highest term, or -1. */
    int leader() {
        int leader = -1;
        long term = -1;
        for (int i = 0; i < NODES; i++) {
            NodeProcess node = nodes[i];
            if (node != null && node.leaderTerm() > term) {
                term = node.leaderTerm();
                leader = i;
            }
        }
        return leader;
    }

    int awaitLeader(Duration timeout) throws InterruptedException {
        RaftTestCluster.await("a leader", timeout, () -> leader() >= 0);
        return leader();
    }

    void neverCommitted(LongPredicate ops) {
        this.neverCommitted = ops;
    }

    /** Pauses the client (its calls in flight end first), then {@link #converge()}; the client stays paused. */
    List<Long> pauseAndConverge() throws Exception {
        client.pause(CONVERGE_TIMEOUT);
        return converge();
    }

    /**
     * With the client paused: waits until every node runs and all hold the same operations,
     * every acknowledged one among them; then checks them ({@link OpsCheck}) and returns them.
     */
    List<Long> converge() throws Exception {
        long deadline = System.nanoTime() + CONVERGE_TIMEOUT.toNanos();
        String last = "nothing asked yet";
        while (System.nanoTime() < deadline) {
            assertHealthy();
            long[][] statuses = new long[NODES][];
            for (int i = 0; i < NODES; i++) {
                String[] reply = nodes[i].request(RaftNodeChild.STATUS, REQUEST_TIMEOUT);
                statuses[i] = Arrays.stream(reply).skip(2).mapToLong(Long::parseLong).toArray();
            }
            last = "applied index, operations, snapshots loaded, last log index per node: " + Arrays.deepToString(statuses)
                    + ", acknowledged " + client.acknowledged().size();
            boolean sameLogs = Arrays.stream(statuses).allMatch(s -> s[0] == statuses[0][0] && s[3] == statuses[0][3] && s[0] == s[3]);
            if (sameLogs && statuses[0][1] >= client.acknowledged().size()) {
                List<List<Long>> ops = new ArrayList<>();
                for (int i = 0; i < NODES; i++) {
                    ops.add(ops(i));
                }
                if (ops.stream().allMatch(o -> o.equals(ops.get(0)))) {
                    String problem = check.check(ops.get(0), client.acknowledged(), client.submittedBelow(), neverCommitted);
                    if (problem != null) {
                        throw new AssertionError(problem + " (" + last + ")");
                    }
                    return ops.get(0);
                }
                last += "; the state machines differ";
            }
            Thread.sleep(100);
        }
        String problem = check.check(ops(Math.max(0, leader())), client.acknowledged(), client.submittedBelow(), neverCommitted);
        throw new AssertionError("the nodes did not converge within " + CONVERGE_TIMEOUT + ": " + last
                + (problem != null ? "; the leader's state machine: " + problem : ""));
    }

    List<Long> ops(int i) throws Exception {
        String[] reply = nodes[i].request(RaftNodeChild.OPS, REQUEST_TIMEOUT);
        return Arrays.stream(reply).skip(2).map(Long::valueOf).toList();
    }

    /** The node's log: {@code term/op} per entry from its first index (the first element). */
    List<String> entries(int i) throws Exception {
        String[] reply = nodes[i].request(RaftNodeChild.ENTRIES, REQUEST_TIMEOUT);
        List<String> entries = new ArrayList<>();
        entries.add(reply[2]);
        if (!reply[3].equals("-")) {
            entries.addAll(Arrays.asList(reply[3].split(",")));
        }
        return entries;
    }

    /** {@code Node.snapshot} on node {@code i}; returns its status ("ok" on success). */
    String snapshot(int i) throws Exception {
        return nodes[i].request(RaftNodeChild.SNAPSHOT, REQUEST_TIMEOUT)[2];
    }

    long snapshotsLoaded(int i) throws Exception {
        return Long.parseLong(nodes[i].request(RaftNodeChild.STATUS, REQUEST_TIMEOUT)[4]);
    }

    /** Fails on any protocol error, node that died by itself, or log storage that restarted without what it acknowledged. */
    void assertHealthy() {
        List<String> found = new ArrayList<>(errors);
        for (int i = 0; i < NODES; i++) {
            if (nodes[i] != null) {
                found.addAll(nodes[i].errors());
            }
            found.addAll(storages[i].failures());
        }
        if (!found.isEmpty()) {
            throw new AssertionError(String.join("\n", found));
        }
    }

    /** Restarts whose log storage was checked against what it acknowledged, over all nodes. */
    int storageChecks() {
        return Arrays.stream(storages).mapToInt(AcknowledgedLog::restartsChecked).sum();
    }

    /** Over all nodes: restarts with a call in flight at the kill that came back whole, absent, or as an append prefix. */
    int[] inFlightOutcomes() {
        int[] sum = new int[3];
        for (AcknowledgedLog storage : storages) {
            int[] outcomes = storage.inFlightOutcomes();
            for (int k = 0; k < sum.length; k++) {
                sum[k] += outcomes[k];
            }
        }
        return sum;
    }

    OpsCheck check() {
        return check;
    }

    @Override
    public void close() {
        client.close();
        try {
            for (NodeProcess node : nodes) {
                if (node != null && node.alive()) {
                    node.kill();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
