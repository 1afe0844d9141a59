package dev.commitlog.raft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reopen is only done when every storage holds again what it held before the stop: a durable
 * storage passes, and one that forgets (the memory ceiling, whose entries die with the node) is
 * reported by name rather than timed. Also the election timeout's scaling with the node count.
 */
@Timeout(60)
class BenchClusterTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    Path tmp;

    /** Runs a little load on a fresh one-replica, two-group cluster and returns each storage's last index. */
    private static long[][] loaded(BenchCluster cluster) throws Exception {
        cluster.start(TIMEOUT);
        try (ClosedLoopLoad load = new ClosedLoopLoad(cluster, 4, 64)) {
            load.start();
            // Until each group has entries: a group whose leader is elected later gets none of the first commits.
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (load.committed() < 50 || !bothGroupsPast(cluster.settledLastIndexes(), 10)) {
                assertTrue(System.nanoTime() < deadline, "both groups take entries within " + TIMEOUT);
                Thread.sleep(10);
            }
            assertTrue(load.stop(TIMEOUT), "load drained");
        }
        long[][] before = cluster.settledLastIndexes();
        assertTrue(bothGroupsPast(before, 10), "both groups took entries");
        return before;
    }

    private static boolean bothGroupsPast(long[][] lastIndexes, long index) {
        return lastIndexes[0][0] > index && lastIndexes[0][1] > index;
    }

    @Test
    void aDurableStorageReopensWithWhatItHeld() throws Exception {
        BenchCluster cluster = new BenchCluster(Contender.ROCKSDB, tmp.resolve("rocksdb"), 1, 2);
        try {
            long[][] before = loaded(cluster);
            cluster.stop();
            BenchCluster.Reopening reopening = cluster.restart(before, TIMEOUT);
            assertTrue(reopening.initNanos() > 0 && reopening.openNanos() >= reopening.initNanos(), reopening.toString());
            long[][] after = cluster.settledLastIndexes();
            for (int g = 0; g < 2; g++) {
                assertTrue(after[0][g] >= before[0][g], "group " + g + ": " + after[0][g] + " after, " + before[0][g] + " before");
            }
        } finally {
            cluster.stopAndDelete();
        }
    }

    @Test
    void aStorageThatForgetsIsNamedNotTimed() throws Exception {
        BenchCluster cluster = new BenchCluster(Contender.MEMORY, tmp.resolve("memory"), 1, 2);
        try {
            long[][] before = loaded(cluster);
            cluster.stop();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> cluster.restart(before, TIMEOUT));
            assertTrue(e.getMessage().matches("bench-group-0 on 127\\.0\\.0\\.1:\\d+ of memory holds entries up to \\d+ PT5S after "
                    + "the restart, " + before[0][0] + " before it"), e.getMessage());
        } finally {
            cluster.stopAndDelete();
        }
    }

    @Test
    void aRunningClusterIsNotRestarted() throws Exception {
        BenchCluster cluster = new BenchCluster(Contender.MEMORY, tmp.resolve("running"), 1, 1);
        try {
            cluster.start(TIMEOUT);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> cluster.restart(new long[][] {{0}}, TIMEOUT));
            assertEquals("restart of a running cluster; stop it first", e.getMessage());
        } finally {
            cluster.stopAndDelete();
        }
    }

    @Test
    void electionTimeoutIsOneSecondUpToTheGridsLargestCellThenGrowsWithTheNodes() {
        assertEquals(1000, BenchCluster.electionTimeoutMs(3));
        assertEquals(1000, BenchCluster.electionTimeoutMs(72), "24 groups x 3 replicas");
        assertEquals(4166, BenchCluster.electionTimeoutMs(300), "100 groups x 3 replicas");
    }
}
