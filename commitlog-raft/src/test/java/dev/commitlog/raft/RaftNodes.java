package dev.commitlog.raft;

import com.alipay.sofa.jraft.JRaftServiceFactory;
import com.alipay.sofa.jraft.StateMachine;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.NodeOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import java.nio.file.Path;
import java.util.List;

/** The options of one node of the fault tests' three-node groups (one node per process or per simulated disk). */
final class RaftNodes {
    static final String GROUP = "commitlog-raft-faults";

    private RaftNodes() {
    }

    static PeerId peer(int port) {
        return new PeerId("127.0.0.1", port);
    }

    static Configuration configuration(List<Integer> ports) {
        Configuration conf = new Configuration();
        for (int port : ports) {
            conf.addPeer(peer(port));
        }
        return conf;
    }

    /**
     * {@code RaftOptions.sync} on; the log URI, meta and (when {@code snapshots}) snapshot
     * directories under {@code dir}; snapshots only when asked for ({@code Node.snapshot}).
     */
    static NodeOptions options(StateMachine fsm, Configuration conf, JRaftServiceFactory factory, Path dir, int electionTimeoutMs,
                               boolean snapshots) {
        RaftOptions raftOptions = new RaftOptions();
        raftOptions.setSync(true);
        NodeOptions options = new NodeOptions();
        options.setRaftOptions(raftOptions);
        options.setServiceFactory(factory);
        options.setFsm(fsm);
        options.setInitialConf(conf.copy());
        options.setElectionTimeoutMs(electionTimeoutMs);
        options.setLogUri(dir.resolve("log").toString());
        options.setRaftMetaUri(dir.resolve("meta").toString());
        if (snapshots) {
            options.setSnapshotUri(dir.resolve("snapshot").toString());
            options.setSnapshotIntervalSecs(0);
        }
        return options;
    }
}
