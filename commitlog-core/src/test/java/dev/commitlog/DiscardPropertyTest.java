package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SimulatedDisk;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A property of every sync mode: whatever {@code discardUpTo} is called with (huge, negative,
 * inside a record, past the durable position), interleaved with appends, asynchronous appends,
 * syncs, clean reopens and power losses ({@link SimulatedDisk}), no acknowledged record at or
 * above the highest discard the log accepted is ever lost. A refused discard changes nothing.
 *
 * <p>"Acknowledged": in Batch, Group and Adaptive, an append that returned or an asynchronous
 * append whose future completed; in Periodic, such a record only once it lies below the durable
 * position read before the power loss (a clean close flushes everything, so a reopen requires all).
 */
class DiscardPropertyTest {
    private static final long SEED = Long.getLong("commitlog.test.seed", System.nanoTime());

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void noAcknowledgedRecordAtOrAboveTheHighestAcceptedDiscardIsLost(SyncMode mode) throws Exception {
        Tally tally = new Tally();
        for (int run = 0; run < 3; run++) {
            long seed = SEED + 1_000L * run + mode.ordinal();
            new Run(mode, seed, dir.resolve("run-" + run), 150).execute(tally);
        }
        System.out.printf("discard property %s: %s (seed %d)%n", mode, tally, SEED);
        assertTrue(tally.accepted > 0 && tally.refused > 0 && tally.crashes > 0, tally::toString);
        assertTrue(tally.recycled > 0, () -> "spares (discarded files, full of their former frames) were reused: " + tally);
    }

    @Tag("slow")
    @ParameterizedTest
    @EnumSource(SyncMode.class)
    void noAcknowledgedRecordAtOrAboveTheHighestAcceptedDiscardIsLostManyRuns(SyncMode mode) throws Exception {
        Tally tally = new Tally();
        for (int run = 0; run < 60; run++) {
            long seed = SEED + 1_000L * run + mode.ordinal();
            new Run(mode, seed, dir.resolve("run-" + run), 400).execute(tally);
        }
        System.out.printf("discard property %s (slow): %s (seed %d)%n", mode, tally, SEED);
    }

    private static final class Tally {
        long appended;
        long accepted;
        long refused;
        long reopens;
        long crashes;
        long required;
        long recycled;

        @Override
        public String toString() {
            return appended + " records appended, " + accepted + " discards accepted, " + refused + " refused, " + reopens
                    + " reopens, " + crashes + " power losses, " + recycled + " segments recycled, " + required
                    + " acknowledged records required at checks";
        }
    }

    /** One seeded sequence of steps against one log, with the model of what must survive. */
    private static final class Run {
        private final SyncMode mode;
        private final long seed;
        private final Random random;
        private final Path dir;
        private final int steps;
        private final CommitLogConfig config;
        /** Every record appended and not known lost, by position (a power loss may take unacknowledged ones). */
        private final TreeMap<Long, byte[]> appended = new TreeMap<>();
        /** Acknowledged records: append returned, or the async future completed. */
        private final TreeMap<Long, byte[]> acknowledged = new TreeMap<>();
        /** Asynchronous appends not completed yet; acknowledged once their future completes. */
        private final Map<CompletableFuture<Long>, byte[]> appendedAsync = new HashMap<>();
        private final List<String> history = new ArrayList<>();
        private long highestAccepted;
        private SimulatedDisk disk = new SimulatedDisk();
        private CommitLog log;
        private int next;

        Run(SyncMode mode, long seed, Path dir, int steps) {
            this.mode = mode;
            this.seed = seed;
            this.random = new Random(seed);
            this.dir = dir;
            this.steps = steps;
            // Recycling on: spares full of valid frames of their former life go through the power losses.
            this.config = TestLogs.smallSegmentConfig(dir, mode).toBuilder().recycleSegments(4).build();
        }

        void execute(Tally tally) throws Exception {
            log = open();
            try {
                for (int step = 0; step < steps; step++) {
                    int dice = random.nextInt(100);
                    if (dice < 45) {
                        appendBurst(tally);
                    } else if (dice < 55) {
                        appendAsync(tally);
                    } else if (dice < 85) {
                        discard(tally);
                    } else if (dice < 90) {
                        log.sync();
                        history.add("sync");
                    } else if (dice < 95) {
                        reopen(tally);
                    } else {
                        powerLoss(tally);
                    }
                }
                reopen(tally);
            } finally {
                closeCounting(tally);
            }
        }

        private CommitLog open() throws Exception {
            return CommitLog.open(config, CommitLogOptions.builder().storage(disk).corruptionListener(TestLogs.TAIL_ONLY).noJmx().build());
        }

        private byte[] nextRecord() {
            return TestLogs.payload(next++, 1 + random.nextInt(random.nextBoolean() ? 120 : 3_000));
        }

        private void appendBurst(Tally tally) {
            int count = 1 + random.nextInt(40);
            for (int i = 0; i < count; i++) {
                byte[] record = nextRecord();
                long position = log.append(record, 0, record.length);
                appended.put(position, record);
                acknowledged.put(position, record);
                tally.appended++;
            }
            history.add("append " + count);
        }

        private void appendAsync(Tally tally) {
            int count = 1 + random.nextInt(20);
            for (int i = 0; i < count; i++) {
                byte[] record = nextRecord();
                appendedAsync.put(log.appendAsync(record, 0, record.length), record);
                tally.appended++;
            }
            history.add("appendAsync " + count);
        }

        /** Moves every completed asynchronous append into the acknowledged records. */
        private void collectCompletions() {
            for (var it = appendedAsync.entrySet().iterator(); it.hasNext(); ) {
                var entry = it.next();
                if (entry.getKey().isDone() && !entry.getKey().isCompletedExceptionally()) {
                    long position = entry.getKey().join();
                    appended.put(position, entry.getValue());
                    acknowledged.put(position, entry.getValue());
                    it.remove();
                }
            }
        }

        private void discard(Tally tally) {
            long position = discardCandidate();
            long durable = log.durablePosition(); // only grows: a position at or below it must be accepted
            try {
                log.discardUpTo(position);
                long durableAfter = log.durablePosition();
                assertTrue(position >= 0 && position <= durableAfter, () -> "accepted a discard to " + position + " with durable "
                        + durableAfter + " " + where());
                highestAccepted = Math.max(highestAccepted, position);
                tally.accepted++;
                history.add("discard " + position + " accepted");
            } catch (IllegalArgumentException refused) {
                assertTrue(position < 0 || position > durable, () -> "refused a discard to " + position
                        + " with durable " + durable + ": " + refused.getMessage() + " " + where());
                tally.refused++;
                history.add("discard " + position + " refused");
            }
        }

        /** Arbitrary longs, biased to the interesting ones: around the durable position, inside records, extremes. */
        private long discardCandidate() {
            long durable = log.durablePosition();
            return switch (random.nextInt(9)) {
                case 0 -> Long.MAX_VALUE;
                case 1 -> Long.MIN_VALUE + random.nextInt(10);
                case 2 -> -1 - random.nextInt(1_000);
                case 3 -> durable + 1 + random.nextInt(1 << 20);
                case 4 -> durable + (1L << 32);
                case 5 -> durable;
                case 6 -> random.nextLong();
                default -> {
                    if (acknowledged.isEmpty()) {
                        yield 0;
                    }
                    Long[] positions = acknowledged.keySet().toArray(new Long[0]);
                    long record = positions[random.nextInt(positions.length)];
                    yield record + (random.nextBoolean() ? 0 : 1 + random.nextInt(16)); // a record start, or inside one
                }
            };
        }

        private void closeCounting(Tally tally) {
            tally.recycled += log.metrics().segmentsRecycled();
            log.close();
        }

        private void reopen(Tally tally) throws Exception {
            closeCounting(tally);
            forgetIncomplete();
            log = open();
            tally.reopens++;
            history.add("reopen");
            check(acknowledged, tally);
        }

        private void powerLoss(Tally tally) throws Exception {
            collectCompletions();
            long durable = log.durablePosition(); // read before the image: everything below it was durable at the crash
            TreeMap<Long, byte[]> required = new TreeMap<>();
            for (var record : acknowledged.entrySet()) {
                if (mode != SyncMode.PERIODIC || record.getKey() + record.getValue().length <= durable) {
                    required.put(record.getKey(), record.getValue());
                }
            }
            SimulatedDisk.Loss loss = SimulatedDisk.Loss.random(random);
            SimulatedDisk image = disk.crashImage(random, loss);
            closeCounting(tally); // the old disk's; the image is what a restart finds
            forgetIncomplete();
            disk = image;
            log = open();
            tally.crashes++;
            history.add("power loss " + loss);
            check(required, tally);
            // What the crash took is gone for good: only what replays now can be required later.
            Map<Long, byte[]> survived = new HashMap<>();
            log.replay(0, (position, view) -> survived.put(position, TestLogs.bytes(view)));
            acknowledged.keySet().retainAll(survived.keySet());
            appended.keySet().retainAll(survived.keySet());
        }

        /** Asynchronous appends not completed by a close or a power loss were never acknowledged: forget them. */
        private void forgetIncomplete() {
            collectCompletions();
            appendedAsync.clear();
        }

        private void check(TreeMap<Long, byte[]> required, Tally tally) {
            Map<Long, byte[]> replayed = new HashMap<>();
            log.replay(0, (position, view) -> replayed.put(position, TestLogs.bytes(view)));
            for (var record : required.tailMap(highestAccepted, true).entrySet()) {
                byte[] got = replayed.get(record.getKey());
                assertNotNull(got, () -> "acknowledged record at " + record.getKey() + " is lost (highest accepted discard "
                        + highestAccepted + ") " + where());
                assertArrayEquals(record.getValue(), got, () -> "record at " + record.getKey() + " changed " + where());
                tally.required++;
            }
            for (var record : replayed.entrySet()) {
                byte[] expected = appended.get(record.getKey());
                if (expected != null) {
                    assertArrayEquals(expected, record.getValue(), () -> "record at " + record.getKey() + " changed " + where());
                }
            }
        }

        private String where() {
            List<String> last = history.subList(Math.max(0, history.size() - 12), history.size());
            return "(" + mode + ", seed " + seed + ", last steps " + Arrays.toString(last.toArray()) + ")";
        }
    }
}
