package dev.commitlog.raft;

import static dev.commitlog.raft.RaftTestCluster.applyAll;
import static dev.commitlog.raft.RaftTestCluster.awaitAllEqual;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import dev.commitlog.config.SyncMode;
import dev.commitlog.raft.RaftTestCluster.Member;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Leader changes that leave uncommitted entries behind, on three JRaft nodes over commit log
 * storages ({@code RaftOptions.sync} on): an isolated leader's conflicting tail is cut by
 * truncateSuffix when it rejoins, and a leader stopped with tasks in flight loses none of the
 * operations it acknowledged.
 */
@Timeout(90)
class RaftReElectionTest {
    private static final Duration LEADER_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration APPLY_TIMEOUT = RaftTestCluster.APPLY_TIMEOUT;
    private static final Duration CATCH_UP_TIMEOUT = RaftTestCluster.CATCH_UP_TIMEOUT;
    /** Operations the isolated leader accepts but cannot commit: far from every acknowledged one. */
    private static final long UNCOMMITTED = 1_000_000;
    /** More uncommitted entries than the new leader writes before the old one returns, so a tail is left past its log. */
    private static final int UNCOMMITTED_COUNT = 40;
    private static final int IN_FLIGHT = 256;

    @TempDir
    Path directory;

    @Test
    void rejoiningLeaderTruncatesItsConflictingUncommittedTail() throws Exception {
        try (RaftTestCluster cluster = new RaftTestCluster(directory, 3, SyncMode.BATCH, false)) {
            // The isolated leader must still lead once both followers have stopped (closing a log
            // waits for its next segment's paced zeros): a lease of 1.8 s, not 0.54.
            cluster.electionTimeout(Duration.ofSeconds(2));
            cluster.startAll();
            Member oldLeader = cluster.awaitLeader(LEADER_TIMEOUT);
            List<Long> acknowledged = new ArrayList<>(applyAll(oldLeader, 0, 50));
            awaitAllEqual(cluster, acknowledged);
            long committedLast = oldLeader.storage.getLastLogIndex();

            // Both followers go at once; until its lease runs out the leader still takes tasks, logs them and cannot commit them.
            List<Member> followers = cluster.running().stream().filter(m -> m != oldLeader).toList();
            stopAll(cluster, followers);
            List<CompletableFuture<Status>> doomed = RaftTestCluster.submit(oldLeader, UNCOMMITTED, UNCOMMITTED + UNCOMMITTED_COUNT);
            for (int i = 0; i < doomed.size(); i++) {
                Status status = doomed.get(i).get(APPLY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                assertFalse(status.isOk(), "uncommittable operation " + (UNCOMMITTED + i) + " reported success");
            }
            long tailLast = oldLeader.storage.getLastLogIndex();
            assertTrue(tailLast >= committedLast + UNCOMMITTED_COUNT, "the isolated leader logged the uncommitted tasks: last index "
                    + tailLast + ", committed " + committedLast);
            cluster.stop(oldLeader);
            assertEquals(UNCOMMITTED_COUNT, uncommittedOps(cluster.entriesOnDisk(oldLeader)).size(),
                    "uncommitted entries in the old leader's log on disk");

            for (Member follower : followers) {
                cluster.start(follower);
            }
            Member newLeader = cluster.awaitLeader(LEADER_TIMEOUT);
            assertNotEquals(oldLeader.peer, newLeader.peer);
            acknowledged.addAll(applyAll(newLeader, 50, 60));
            assertTrue(newLeader.storage.getLastLogIndex() < tailLast, "the new leader's log ends before the old leader's tail");

            cluster.start(oldLeader);
            awaitAllEqual(cluster, acknowledged);
            RaftTestCluster.await("the old leader's log to match the new leader's", CATCH_UP_TIMEOUT,
                    () -> oldLeader.storage.getLastLogIndex() == newLeader.storage.getLastLogIndex());

            Member leader = cluster.awaitLeader(LEADER_TIMEOUT);
            RaftTestCluster.await("every log to end where the leader's does", CATCH_UP_TIMEOUT,
                    () -> cluster.running().stream().allMatch(m -> m.storage.getLastLogIndex() == leader.storage.getLastLogIndex()));
            cluster.stopAllLeaderLast();
            List<LogEntry> leaderLog = cluster.entriesOnDisk(leader);
            for (Member member : cluster.members()) {
                List<LogEntry> log = cluster.entriesOnDisk(member);
                assertEquals(List.of(), uncommittedOps(log), member.peer + ": uncommitted operations left in the log on disk");
                assertSameLog(leaderLog, log, member.peer + " against the leader " + leader.peer);
            }

            // Every node replays its log to the acknowledged operations, and the group goes on.
            cluster.startAll();
            awaitAllEqual(cluster, acknowledged);
            acknowledged.addAll(applyAll(cluster.awaitLeader(LEADER_TIMEOUT), 60, 80));
            awaitAllEqual(cluster, acknowledged);
        }
    }

    @Test
    void leaderStoppedWithTasksInFlightLosesNoAcknowledgedOperation() throws Exception {
        try (RaftTestCluster cluster = new RaftTestCluster(directory, 3, SyncMode.ADAPTIVE, false)) {
            cluster.startAll();
            Member oldLeader = cluster.awaitLeader(LEADER_TIMEOUT);
            List<Long> acknowledged = new ArrayList<>(applyAll(oldLeader, 0, 50));

            // A submitter keeps IN_FLIGHT tasks outstanding, refilling the window as closures run; the leader stops
            // as soon as enough of them are acknowledged, with the submitter still going.
            InFlightSubmitter submitter = new InFlightSubmitter(oldLeader, 50, IN_FLIGHT, 100);
            submitter.start();
            assertTrue(submitter.awaitAcknowledged(APPLY_TIMEOUT), "the first in-flight operations acknowledged");
            submitter.awaitInFlight(APPLY_TIMEOUT);
            int inFlightAtStop = submitter.inFlight();
            cluster.stop(oldLeader);
            submitter.finish();
            acknowledged.addAll(submitter.acknowledged());
            assertTrue(inFlightAtStop > 0, "the leader stopped with tasks in flight");
            // Whether those commit during the shutdown or fail is JRaft's choice: only the acknowledged ones must survive.
            System.out.printf("leader stopped with %d tasks in flight: %d operations acknowledged, %d failed, %d never answered%n",
                    inFlightAtStop, submitter.acknowledged().size(), submitter.failed(), submitter.unknown());

            Member newLeader = cluster.awaitLeader(LEADER_TIMEOUT);
            acknowledged.addAll(applyAll(newLeader, 10_000, 10_050));
            cluster.start(oldLeader);
            List<Long> applied = awaitConverged(cluster, 10_049L);
            assertHoldsAcknowledged(applied, acknowledged);

            for (Member member : cluster.members()) {
                cluster.stop(member);
            }
            cluster.startAll();
            assertEquals(applied, awaitConverged(cluster, 10_049L), "the state machines replayed from the logs");
        }
    }

    /** Waits until every running state machine holds {@code lastOp} and all hold the same list; returns it. */
    private static List<Long> awaitConverged(RaftTestCluster cluster, long lastOp) throws InterruptedException {
        RaftTestCluster.await("every node applying operation " + lastOp + " and agreeing", CATCH_UP_TIMEOUT, () -> {
            List<List<Long>> lists = cluster.running().stream().map(m -> m.fsm.ops()).toList();
            return lists.stream().allMatch(ops -> ops.contains(lastOp) && ops.equals(lists.get(0)));
        });
        return cluster.running().get(0).fsm.ops();
    }

    /** Every acknowledged operation is applied, each operation once, in submission order (increasing). */
    private static void assertHoldsAcknowledged(List<Long> applied, List<Long> acknowledged) {
        for (int i = 1; i < applied.size(); i++) {
            assertTrue(applied.get(i) > applied.get(i - 1), "operation " + applied.get(i) + " applied after " + applied.get(i - 1)
                    + " (a duplicate or a reordering)");
        }
        Set<Long> present = new HashSet<>(applied);
        for (long op : acknowledged) {
            assertTrue(present.contains(op), "acknowledged operation " + op + " is missing from the state machine");
        }
    }

    private static List<Long> uncommittedOps(List<LogEntry> log) {
        List<Long> found = new ArrayList<>();
        for (LogEntry entry : log) {
            long op = opOf(entry);
            if (op >= UNCOMMITTED) {
                found.add(op);
            }
        }
        return found;
    }

    /** The operation a data entry carries, or -1. */
    private static long opOf(LogEntry entry) {
        ByteBuffer data = entry.getData();
        if (entry.getType() != EntryType.ENTRY_TYPE_DATA || data == null || data.remaining() != Long.BYTES) {
            return -1;
        }
        return data.getLong(data.position());
    }

    /** Same indexes, terms, types and operations. */
    private static void assertSameLog(List<LogEntry> expected, List<LogEntry> actual, String what) {
        assertEquals(describe(expected), describe(actual), what);
    }

    private static List<String> describe(List<LogEntry> log) {
        return log.stream().map(e -> e.getId().getIndex() + ":t" + e.getId().getTerm() + ":" + e.getType() + ":" + opOf(e)).toList();
    }

    private static void stopAll(RaftTestCluster cluster, List<Member> members) throws Exception {
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        for (Member member : members) {
            stops.add(CompletableFuture.runAsync(() -> {
                try {
                    cluster.stop(member);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (CompletableFuture<Void> stop : stops) {
            stop.get(APPLY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
