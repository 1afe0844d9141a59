package dev.commitlog.raft;

import com.alipay.sofa.jraft.entity.Task;
import dev.commitlog.config.SyncMode;
import dev.commitlog.raft.RaftTestCluster.Member;
import dev.commitlog.testkit.KillableChild;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;

/**
 * The process {@link RaftProcessKillTest} kills with SIGKILL: a three-node group on loopback
 * ({@link RaftTestCluster} in {@code args[0]}, ports {@code args[3]}, comma-separated, sync mode
 * {@code args[2]}), each node over its own commit log with {@code RaftOptions.sync} on.
 *
 * <p>At start every node replays its log; once every node has applied all the entries the leader
 * held when elected (entries of earlier lives, committed by the new term's first entry), the
 * child prints one line per node, {@code REPLAYED node op op ...} (its state machine in apply
 * order), then {@code READY}. Then it applies operations {@code generation << 32 | seq}
 * ({@code args[1]} is the generation) with up to {@value #IN_FLIGHT} in flight and prints
 * {@code ACK op} from each task's closure once it succeeded (committed on a majority and applied).
 * It prints through {@link KillableChild}: one write(2) per line, so a line in the pipe survives
 * the kill and a cut line was never printed.
 */
public final class RaftKillChild {
    static final String REPLAYED = "REPLAYED";
    static final String ACK = "ACK";
    private static final int IN_FLIGHT = 64;
    /** A safety net: the child ends itself if nobody kills it. */
    private static final long MAX_LIFETIME_MILLIS = 120_000;
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

    private RaftKillChild() {
    }

    static long op(int generation, int seq) {
        return ((long) generation << 32) | seq;
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        int generation = Integer.parseInt(args[1]);
        SyncMode mode = SyncMode.valueOf(args[2]);
        List<Integer> ports = new ArrayList<>();
        for (String port : args[3].split(",")) {
            ports.add(Integer.parseInt(port));
        }
        KillableChild out = new KillableChild();
        RaftTestCluster cluster = new RaftTestCluster(root, ports, mode, false);
        cluster.startAll();
        Member leader = cluster.awaitLeader(STARTUP_TIMEOUT);
        long replayedTo = leader.node.getLastLogIndex();
        RaftTestCluster.await("every node applying its replayed log to index " + replayedTo, STARTUP_TIMEOUT,
                () -> cluster.members().stream().allMatch(m -> m.node.getLastAppliedLogIndex() >= replayedTo));
        List<Member> members = cluster.members();
        for (int i = 0; i < members.size(); i++) {
            StringBuilder line = new StringBuilder(REPLAYED).append(' ').append(i);
            for (long op : members.get(i).fsm.ops()) {
                line.append(' ').append(op);
            }
            out.println(line.toString());
        }
        out.ready();

        Thread applier = new Thread(() -> applyForever(leader, generation, out), "applier");
        applier.setDaemon(true);
        applier.start();
        KillableChild.awaitKill(MAX_LIFETIME_MILLIS);
    }

    private static void applyForever(Member leader, int generation, KillableChild out) {
        Semaphore window = new Semaphore(IN_FLIGHT);
        try {
            for (int seq = 0; ; seq++) {
                window.acquire();
                long op = op(generation, seq);
                leader.node.apply(new Task(ByteBuffer.allocate(Long.BYTES).putLong(0, op), status -> {
                    if (status.isOk()) {
                        try {
                            out.println(ACK + " " + op);
                        } catch (IOException e) {
                            Runtime.getRuntime().halt(4);
                        }
                    }
                    window.release();
                }));
            }
        } catch (Throwable e) {
            e.printStackTrace();
            Runtime.getRuntime().halt(3);
        }
    }
}
