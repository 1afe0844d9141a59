package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node killed while JRaft cuts its conflicting uncommitted tail, in a group of three processes
 * ({@link ProcessCluster}). Each cycle: both followers are killed; the leader takes
 * {@value #DOOMED} operations it logs and can never commit; it is killed; the followers restart and
 * elect a new leader, which takes {@value #NEW_ENTRIES} new operations at the first of those indexes
 * (the client otherwise paused, so the cut leaves the old leader's log shorter than the tail was);
 * the old leader restarts and, as it rejoins, its log storage's {@code truncateSuffix} cuts the old
 * tail. It is killed then, one of three ways drawn at random: a random 0-2 ms after it says it
 * begins the cut (before its marker is durable, during the wait, or just after); a random 0-2 ms
 * after it says the cut returned (while it appends the new leader's entries over the cut); or at a
 * random moment up to 1 s after it is ready. Its next start checks its log storage against what it acknowledged
 * ({@link AcknowledgedLog}: the tail still there, or cut, nothing else); then every node must hold
 * the same log, entry for entry, with none of the doomed operations, and the same state machine,
 * with every acknowledged operation (0 lost). Last, the old leader is killed once more, long after
 * its cut returned, and its restart must find the tail gone.
 */
class RaftTailCutKillTest {
    /** Operations the isolated leader logs: far above every operation the client submits. */
    private static final long DOOMED_BASE = 1L << 40;
    private static final int DOOMED = 40;
    /** Operations the new leader commits before the old one rejoins: fewer than {@link #DOOMED}. */
    private static final int NEW_ENTRIES = 10;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void nodeKilledWhileItsConflictingTailIsCutRejoinsTheLog() throws Exception {
        SeededRun.report("raft tail cut kills", run(2));
    }

    @Tag("slow")
    @Test
    void nodeKilledWhileItsConflictingTailIsCutRejoinsTheLogManyTimes() throws Exception {
        SeededRun.report("raft tail cut kills (slow)", run(Integer.getInteger("commitlog.test.tailCutKills", 40)));
    }

    private String run(int cycles) throws Exception {
        Random random = SeededRun.random(getClass());
        long start = System.nanoTime();
        int beforeCut = 0;
        int duringCut = 0;
        int afterCut = 0;
        int cutsAfterRestart = 0;
        try (ProcessCluster cluster = ProcessCluster.started(dir.resolve("cluster"), false, random)) {
            cluster.neverCommitted(op -> op >= DOOMED_BASE); // none is submitted before the first cycle
            for (int cycle = 0; cycle < cycles; cycle++) {
                Thread.sleep(300 + random.nextInt(500)); // the client writes
                cluster.pauseAndConverge();
                int old = cluster.awaitLeader(TIMEOUT);
                int[] followers = {(old + 1) % 3, (old + 2) % 3};

                // The leader, alone, logs operations it cannot commit: an uncommitted tail.
                cluster.kill(followers[0]);
                cluster.kill(followers[1]);
                long committedLast = cluster.acknowledgedLog(old).last();
                long doomed = DOOMED_BASE + (long) cycle * DOOMED;
                for (int d = 0; d < DOOMED; d++) {
                    assertTrue(cluster.node(old).submit(doomed + d, cluster.client), "the old leader takes a task");
                }
                RaftTestCluster.await("the old leader logging its uncommitted tail", TIMEOUT,
                        () -> cluster.acknowledgedLog(old).last() >= committedLast + DOOMED);
                cluster.kill(old);

                // The followers elect a new leader, which writes over the first of those indexes: fewer entries than
                // the tail, so after the cut the old leader's log ends before the tail did, and a cut that did not
                // last would bring the rest of the tail back.
                cluster.start(followers);
                int leader = cluster.awaitLeader(TIMEOUT);
                assertNotEquals(old, leader, "the old leader is down");
                cluster.client.submitTo(cluster.node(leader), NEW_ENTRIES, TIMEOUT);

                // The old leader rejoins and cuts its tail; it is killed around the cut.
                NodeProcess rejoining = cluster.launch(old, StorageCall.Kind.TRUNCATE_SUFFIX);
                switch (random.nextInt(3)) {
                    case 0 -> {
                        await(rejoining.watchedBegin(), rejoining, "began cutting its tail");
                        spin(random.nextInt(2_000_000));
                    }
                    case 1 -> {
                        await(rejoining.watchedReturn(), rejoining, "returned from cutting its tail");
                        spin(random.nextInt(2_000_000));
                    }
                    default -> {
                        rejoining.awaitReady(ProcessCluster.START_TIMEOUT);
                        Thread.sleep(random.nextInt(1000));
                    }
                }
                cluster.kill(old);
                int begun = rejoining.begun(StorageCall.Kind.TRUNCATE_SUFFIX);
                int returned = rejoining.returned(StorageCall.Kind.TRUNCATE_SUFFIX);
                if (begun == 0) {
                    beforeCut++;
                } else if (returned < begun) {
                    duringCut++;
                } else {
                    afterCut++;
                }

                NodeProcess restarted = cluster.launch(old, StorageCall.Kind.TRUNCATE_SUFFIX); // its log is checked as it opens
                cluster.awaitStarted(old);
                cluster.converge();
                if (restarted.begun(StorageCall.Kind.TRUNCATE_SUFFIX) > 0) {
                    cutsAfterRestart++;
                }
                // Begun, not returned: a kill after the cut was made and before the node printed its return leaves a
                // cut the restart has no need to make again. That the tail is gone is assertSameLogs's to check.
                assertTrue(begun + restarted.begun(StorageCall.Kind.TRUNCATE_SUFFIX) > 0, "the old leader began cutting its tail");
                assertSameLogs(cluster);

                // Killed once more, well after its cut returned: the restart must find the tail gone for good.
                cluster.kill(old);
                cluster.start(old);
                cluster.converge();
                assertSameLogs(cluster);
                cluster.client.resume();
            }
            cluster.pauseAndConverge();
            assertSameLogs(cluster);
            return cycles + " uncommitted tails cut, the node killed before its cut " + beforeCut + " times, during it " + duringCut
                    + ", after it " + afterCut + " (the restarted node cut a tail again " + cutsAfterRestart + " times); "
                    + cluster.client.acknowledged().size() + " operations acknowledged, 0 lost, no uncommitted one applied ("
                    + cluster.check().checks() + " checks), " + cluster.storageChecks() + " restarts' logs checked, "
                    + (System.nanoTime() - start) / 1_000_000_000 + " s";
        }
    }

    /** Every node's log, entry for entry (term and operation), is the same, and none holds a doomed operation. */
    private static void assertSameLogs(ProcessCluster cluster) throws Exception {
        // The logs are read one node after another: an election in between adds its configuration entry to some only.
        List<List<String>> logs = entriesOfEveryNode(cluster);
        for (long deadline = System.nanoTime() + TIMEOUT.toNanos(); !logs.stream().allMatch(logs.get(0)::equals)
                && System.nanoTime() < deadline; logs = entriesOfEveryNode(cluster)) {
            Thread.sleep(50);
        }
        List<String> first = logs.get(0);
        for (int i = 0; i < ProcessCluster.NODES; i++) {
            List<String> entries = logs.get(i);
            for (String entry : entries.subList(1, entries.size())) {
                String op = entry.substring(entry.indexOf('/') + 1);
                assertTrue(op.equals("-") || Long.parseLong(op) < DOOMED_BASE, "node " + i + " still logs the uncommitted " + entry);
            }
            assertEquals(first, entries, "node " + i + "'s log against node 0's");
        }
    }

    private static List<List<String>> entriesOfEveryNode(ProcessCluster cluster) throws Exception {
        List<List<String>> logs = new ArrayList<>();
        for (int i = 0; i < ProcessCluster.NODES; i++) {
            logs.add(cluster.entries(i));
        }
        return logs;
    }

    private static void await(CountDownLatch latch, NodeProcess node, String what) throws InterruptedException {
        assertTrue(latch.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "the rejoining node never " + what + "; stderr: "
                + node.stderrTail());
    }

    private static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
