package dev.commitlog.raft;

import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.RaftGroupService;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.entity.Task;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.rpc.RaftRpcServerFactory;
import com.alipay.sofa.jraft.rpc.RpcServer;
import com.alipay.sofa.jraft.storage.LogStorage;
import com.alipay.sofa.jraft.storage.RaftMetaStorage;
import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.testkit.DamageReports;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * One JRaft node of a three-node group in this JVM whose whole state is on a {@link SimulatedDisk}:
 * its commit log (the log storage under test) and its Raft meta ({@link SimulatedMetaStorage}); no
 * snapshots. A power loss freezes it ({@link PowerSwitch#off}), takes a crash image of its disk
 * (log and meta at one instant, under a random {@link SimulatedDisk.Loss}), and shuts the frozen
 * node down; the next life runs on the image. Each life's storages report to the node's
 * {@link AcknowledgedLog} and {@link AcknowledgedMeta}, which check the next life against what
 * this one acknowledged.
 */
final class PoweredNode implements OpsClient.Target {
    static final int ELECTION_TIMEOUT_MS = 600;
    private static final int SEGMENT_SIZE = 1024 * 1024;

    final int index;
    final PeerId peer;
    private final Configuration conf;
    private final Path dir;
    final AcknowledgedLog storage;
    final AcknowledgedMeta meta;
    private final ElectionJournal journal;
    private SimulatedDisk disk = new SimulatedDisk();

    private PowerSwitch power;
    private CommitLog log;
    private RaftCommitLog raftLog;
    private RpcServer rpcServer;
    private RaftGroupService service;
    private OpsStateMachine ops;
    private volatile Node node;
    private SimulatedDisk image;
    private SimulatedDisk.Loss imageLoss;

    PoweredNode(int index, PeerId peer, Configuration conf, Path dir, ElectionJournal journal) {
        this.index = index;
        this.peer = peer;
        this.conf = conf;
        this.dir = dir;
        this.journal = journal;
        this.storage = new AcknowledgedLog("node " + index);
        this.meta = new AcknowledgedMeta(index, journal);
    }

    /** Starts a life on the disk (a crash image after a power loss); its storages are checked as they open. */
    void start(SyncMode mode) throws IOException {
        power = new PowerSwitch();
        ops = new OpsStateMachine();
        DamageReports reports = new DamageReports();
        Path logDirectory = Files.createDirectories(dir.resolve("commitlog"));
        log = CommitLog.open(CommitLogConfig.builder(logDirectory).syncMode(mode).segmentSize(SEGMENT_SIZE).build(), disk, reports);
        if (!reports.onlyTornTails()) {
            throw new AssertionError("node " + index + ": damage other than a torn tail after a power loss: " + reports);
        }
        raftLog = RaftCommitLog.over(log);
        PowerSwitch switchOfThisLife = power;
        SimulatedDisk diskOfThisLife = disk;
        CommitLogJRaftServiceFactory factory = new CommitLogJRaftServiceFactory(raftLog) {
            @Override
            public LogStorage createLogStorage(String uri, RaftOptions raftOptions) {
                return new ObservedLogStorage(super.createLogStorage(uri, raftOptions), storage, switchOfThisLife);
            }

            @Override
            public RaftMetaStorage createRaftMetaStorage(String uri, RaftOptions raftOptions) {
                return new SimulatedMetaStorage(diskOfThisLife, logDirectory, switchOfThisLife, meta);
            }
        };
        LeaderAwareStateMachine fsm = new LeaderAwareStateMachine(ops, new LeaderAwareStateMachine.Listener() {
            @Override
            public void leaderStart(long term) {
                journal.leader(index, term);
            }

            @Override
            public void leaderStop() {
            }
        });
        rpcServer = RaftRpcServerFactory.createRaftRpcServer(peer.getEndpoint());
        service = new RaftGroupService(RaftNodes.GROUP, peer, RaftNodes.options(fsm, conf, factory, dir, ELECTION_TIMEOUT_MS, false),
                rpcServer, true);
        Node started = service.start(false);
        if (started == null || !rpcServer.init(null)) {
            throw new IllegalStateException("node " + index + " did not start");
        }
        node = started;
    }

    /** Freezes the node: from now on no storage call of it returns, so it promises nothing more. */
    void powerOff() {
        power.off();
        storage.lost();
        meta.lost();
    }

    /** The crash image of the frozen node's disk (log and meta at one instant); then shuts the node down. */
    void crashAndShutDown(Random random, OpsClient client) throws InterruptedException {
        imageLoss = SimulatedDisk.Loss.random(random);
        image = disk.crashImage(random, imageLoss);
        rpcServer.shutdown(); // before the frozen calls fail: a vote JRaft grants on a failed save reaches no peer
        power.dead();
        shutDown(client);
        disk = image;
    }

    /** A clean stop (no power loss). */
    void stop(OpsClient client) throws InterruptedException {
        if (node == null) {
            return;
        }
        service.shutdown();
        service.join();
        rpcServer.shutdown();
        closeLogs(client);
    }

    private void shutDown(OpsClient client) throws InterruptedException {
        service.shutdown();
        service.join();
        closeLogs(client);
    }

    private void closeLogs(OpsClient client) {
        node = null;
        raftLog.close();
        log.close();
        client.abandon(this);
    }

    SimulatedDisk.Loss lastLoss() {
        return imageLoss;
    }

    boolean running() {
        return node != null;
    }

    /** Runs and leads, as far as it can tell without waiting for its lock; false once its power is off. */
    boolean leads() {
        Node current = node;
        return current != null && power.on() && current.isLeader(false);
    }

    /** Leads or follows, applied index and last log index, for failure messages. */
    String status() {
        Node current = node;
        return current == null ? "down" : (current.isLeader(false) ? "leader" : "follower") + " applied "
                + current.getLastAppliedLogIndex() + " of " + current.getLastLogIndex();
    }

    List<Long> ops() {
        return ops.ops();
    }

    @Override
    public boolean submit(long op, OpsClient client) {
        Node current = node;
        if (current == null) {
            return false;
        }
        try {
            current.apply(new Task(ByteBuffer.allocate(Long.BYTES).putLong(0, op), status -> {
                if (status.isOk()) {
                    client.acknowledged(op);
                } else {
                    client.failed(op);
                }
            }));
            return true;
        } catch (IllegalStateException e) {
            return false; // shutting down
        }
    }
}
