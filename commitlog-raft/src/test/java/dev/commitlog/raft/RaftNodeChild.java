package dev.commitlog.raft;

import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.RaftGroupService;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.Task;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.testkit.KillableChild;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One node of a three-node Raft group, in a process of its own ({@link NodeProcess} is the
 * parent's side): {@code args} are the group's root directory, this node's number, the three
 * loopback ports (comma-separated), the sync mode, and whether snapshots are on. The node's commit
 * log, Raft meta and snapshots are under {@code root/node-<number>}; it restarts on the same
 * directory and port.
 *
 * <p>Prints (one write(2) per line, see {@link KillableChild}), each line only after what it says
 * happened:
 * <ul>
 *   <li>{@code READY} once the node started; {@code LEADER term} / {@code FOLLOWER} when it starts
 *       or stops leading;</li>
 *   <li>{@code ACK op} / {@code FAIL op status} from an applied operation's closure;</li>
 *   <li>its log storage's life ({@link ObservedLogStorage}): {@code L first runs} after init,
 *       {@code B call} before each mutation and {@code D call result} after it returned, before
 *       JRaft sees the result.</li>
 * </ul>
 * Reads commands on stdin, one a line: {@code APPLY op}; and requests answered with a line that
 * starts with the same word and id: {@code OPS id} (the state machine), {@code STATUS id} (applied
 * index, operations, snapshots loaded, last log index), {@code ENTRIES id} (the log: the first
 * index, then {@code term/op} per entry, {@code -} for an entry that carries no operation),
 * {@code SNAPSHOT id} ({@code Node.snapshot}'s status). It halts when stdin closes (its parent is
 * gone).
 */
public final class RaftNodeChild {
    static final String LEADER = "LEADER";
    static final String FOLLOWER = "FOLLOWER";
    static final String ACK = "ACK";
    static final String FAIL = "FAIL";
    static final String LOADED = "L";
    static final String BEGIN = "B";
    static final String DONE = "D";
    static final String APPLY = "APPLY";
    static final String OPS = "OPS";
    static final String STATUS = "STATUS";
    static final String ENTRIES = "ENTRIES";
    static final String SNAPSHOT = "SNAPSHOT";
    static final int ELECTION_TIMEOUT_MS = 1000;

    private final KillableChild out = new KillableChild();
    private final OpsStateMachine ops = new OpsStateMachine();
    private volatile LogStorage storage;
    private Node node;

    private RaftNodeChild() {
    }

    static Path nodeDirectory(Path root, int index) {
        return root.resolve("node-" + index);
    }

    public static void main(String[] args) throws Exception {
        // stdout carries the protocol only: whatever a library prints goes to stderr (KillableChild writes to fd 1 itself).
        System.setOut(System.err);
        Path root = Path.of(args[0]);
        int index = Integer.parseInt(args[1]);
        List<Integer> ports = new ArrayList<>();
        for (String port : args[2].split(",")) {
            ports.add(Integer.parseInt(port));
        }
        SyncMode mode = SyncMode.valueOf(args[3]);
        boolean snapshots = Boolean.parseBoolean(args[4]);
        new RaftNodeChild().run(nodeDirectory(root, index), ports.get(index), RaftNodes.configuration(ports), mode, snapshots);
    }

    private void run(Path dir, int port, Configuration conf, SyncMode mode, boolean snapshots) throws Exception {
        RaftCommitLog log = RaftCommitLog.open(CommitLogConfig.builder(dir.resolve("commitlog")).syncMode(mode)
                .segmentSize(8 * 1024 * 1024).build());
        LogStorageObserver printer = new LogStorageObserver() {
            @Override
            public void loaded(long first, long[] terms) {
                print(LOADED + " " + first + " " + StorageCall.runs(terms));
            }

            @Override
            public void beginning(StorageCall call) {
                print(BEGIN + " " + call.encode());
            }

            @Override
            public void done(StorageCall call, int result) {
                print(DONE + " " + call.kind().code + " " + call.index() + " " + result);
            }
        };
        CommitLogJRaftServiceFactory factory = new CommitLogJRaftServiceFactory(log) {
            @Override
            public LogStorage createLogStorage(String uri, RaftOptions raftOptions) {
                ObservedLogStorage observed = new ObservedLogStorage(super.createLogStorage(uri, raftOptions), printer,
                        ObservedLogStorage.Gate.OPEN);
                storage = observed;
                return observed;
            }
        };
        LeaderAwareStateMachine fsm = new LeaderAwareStateMachine(ops, new LeaderAwareStateMachine.Listener() {
            @Override
            public void leaderStart(long term) {
                print(LEADER + " " + term);
            }

            @Override
            public void leaderStop() {
                print(FOLLOWER);
            }
        });
        RaftGroupService service = new RaftGroupService(RaftNodes.GROUP, RaftNodes.peer(port),
                RaftNodes.options(fsm, conf, factory, dir, ELECTION_TIMEOUT_MS, snapshots));
        node = service.start();
        if (node == null) {
            throw new IllegalStateException("the node on port " + port + " did not start");
        }
        out.ready();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line; (line = in.readLine()) != null; ) {
            command(line.split(" "));
        }
        Runtime.getRuntime().halt(0); // the parent is gone
    }

    private void command(String[] parts) {
        switch (parts[0]) {
            case APPLY -> apply(Long.parseLong(parts[1]));
            case OPS -> {
                StringBuilder line = new StringBuilder(OPS).append(' ').append(parts[1]);
                for (long op : ops.ops()) {
                    line.append(' ').append(op);
                }
                print(line.toString());
            }
            case STATUS -> print(STATUS + " " + parts[1] + " " + node.getLastAppliedLogIndex() + " " + ops.size() + " "
                    + ops.snapshotsLoaded() + " " + node.getLastLogIndex());
            case ENTRIES -> print(ENTRIES + " " + parts[1] + " " + entries());
            case SNAPSHOT -> node.snapshot(status -> print(SNAPSHOT + " " + parts[1] + " " + (status.isOk() ? "ok" : status.toString()
                    .replace(' ', '_'))));
            default -> throw new IllegalArgumentException("unknown command " + String.join(" ", parts));
        }
    }

    private void apply(long op) {
        try {
            node.apply(new Task(ByteBuffer.allocate(Long.BYTES).putLong(0, op),
                    status -> print(status.isOk() ? ACK + " " + op : FAIL + " " + op + " " + status.getRaftError())));
        } catch (IllegalStateException e) {
            print(FAIL + " " + op + " refused");
        }
    }

    /** The first index, then {@code term/op} for each entry ({@code term/-} for one that carries no operation). */
    private String entries() {
        LogStorage log = storage;
        long first = log.getFirstLogIndex();
        long last = log.getLastLogIndex();
        StringBuilder text = new StringBuilder().append(first).append(' ');
        if (last < first) {
            return text.append('-').toString();
        }
        for (long index = first; index <= last; index++) {
            LogEntry entry = log.getEntry(index);
            if (index > first) {
                text.append(',');
            }
            text.append(entry.getId().getTerm()).append('/');
            ByteBuffer data = entry.getData();
            if (entry.getType() == EntryType.ENTRY_TYPE_DATA && data != null && data.remaining() == Long.BYTES) {
                text.append(data.getLong(data.position()));
            } else {
                text.append('-');
            }
        }
        return text.toString();
    }

    private void print(String line) {
        try {
            out.println(line);
        } catch (IOException e) {
            Runtime.getRuntime().halt(4); // the parent is gone
        }
    }
}
