package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.config.SyncMode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Simulated power loss under Raft log storages that share one commit log: every acknowledged
 * appendEntries, truncatePrefix, truncateSuffix, reset and drop survives, and a call in flight is
 * either wholly there or absent (an append may keep a prefix of its entries); a group's state is
 * the same before, during and after a rewrite of its entries forward. See
 * {@link RaftPowerLossScenario} for the run and the checks.
 */
class RaftPowerLossTest {
    private static final long SEED = Long.getLong("commitlog.test.seed", System.nanoTime());
    private static final int TARGET_IMAGES = 100;
    private static final int CALLS_PER_GROUP = 300;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "ADAPTIVE"})
    void everyAcknowledgedCallSurvivesPowerLoss(SyncMode mode) throws Exception {
        long seed = SEED + mode.ordinal();
        RaftPowerLossScenario.Counts counts = new RaftPowerLossScenario(mode, seed, dir, TARGET_IMAGES, CALLS_PER_GROUP).run();
        System.out.printf("raft power loss %s: %s (seed %d)%n", mode, counts, seed);
        assertTrue(counts.images >= TARGET_IMAGES / 2, () -> "too few images: " + counts);
        assertTrue(counts.drops > 0, () -> "no group was dropped: " + counts);
        assertTrue(counts.rewrites > 0, () -> "no group was rewritten: " + counts);
    }

    @Tag("slow")
    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"BATCH", "GROUP", "ADAPTIVE"})
    void everyAcknowledgedCallSurvivesPowerLossManyImages(SyncMode mode) throws Exception {
        RaftPowerLossScenario.Counts total = new RaftPowerLossScenario.Counts();
        int wanted = Integer.getInteger("commitlog.test.raftImages", 3_000);
        for (int round = 0; total.images < wanted; round++) {
            Path roundDir = Files.createDirectories(dir.resolve("round-" + round));
            total.add(new RaftPowerLossScenario(mode, SEED + 1_000L * round + mode.ordinal(), roundDir, TARGET_IMAGES,
                    CALLS_PER_GROUP).run());
        }
        System.out.printf("raft power loss %s (slow): %s (seed %d)%n", mode, total, SEED);
        assertTrue(total.segmentsDiscarded > 0, () -> "no segment was discarded: images never covered compaction: " + total);
    }
}
