package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.testkit.ChildJvm;
import dev.commitlog.testkit.ChildKill;
import dev.commitlog.testkit.DamageReports;
import dev.commitlog.testkit.KillableChild;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real process kills: a child JVM ({@link KillChild}) appends from several threads in Batch or
 * Group mode and prints each acknowledged record; the parent sends SIGKILL at a random moment,
 * reopens the directory with the production {@link MappedStorageLayer}, and checks that every
 * record the child acknowledged, in this and every earlier cycle on the same directory, is present
 * at the position append returned and byte-identical, and that nothing else is there. The child
 * discards all but its last few segments as it goes (it says where before each discard, and only
 * records at or past that are required), so segment files are deleted under the kills.
 *
 * <p>What this proves and what it does not: a killed process loses nothing the page cache holds,
 * so this tests the engine's own ordering (acknowledge only after the flush; recovery keeps
 * flushed-or-cached data and cuts only after the last verified frame), not the device. Power loss
 * is {@link SimulatedPowerLossTest}'s job.
 */
class ProcessKillTest {
    private static final int THREADS = 4;
    /** Cycles on one directory before starting a fresh one, so that the log stays small. */
    private static final int CYCLES_PER_DIRECTORY = 25;
    /** The modes that acknowledge only durable records, taken in turn by successive cycles. */
    private static final SyncMode[] KILLED_MODES = {SyncMode.BATCH, SyncMode.GROUP, SyncMode.ADAPTIVE};
    private static final long SEED = Long.getLong("commitlog.test.seed", System.nanoTime());

    @TempDir
    Path dir;

    @Test
    void killedWriterLosesNoAcknowledgedRecord() throws Exception {
        Totals totals = runCycles(20, SEED);
        System.out.printf("process kills: %s (seed %d)%n", totals, SEED);
    }

    /** The same over a compressed and encrypted log (LZ4 + AES-GCM): a kill tears a section at most, which ends the log. */
    @Test
    void killedSectionedWriterLosesNoAcknowledgedRecord() throws Exception {
        sectioned = true;
        Totals totals = runCycles(8, SEED + 1);
        System.out.printf("process kills, lz4 + aes-gcm: %s (seed %d)%n", totals, SEED + 1);
    }

    @Tag("slow")
    @Test
    void killedSectionedWriterLosesNoAcknowledgedRecordHundredsOfCycles() throws Exception {
        sectioned = true;
        Totals totals = runCycles(Integer.getInteger("commitlog.test.killCycles", 1_000) / 4, SEED + 1);
        System.out.printf("process kills, lz4 + aes-gcm (slow): %s (seed %d)%n", totals, SEED + 1);
    }

    /** The children compress and encrypt ({@link KillChild#SECTIONED}). */
    private boolean sectioned;

    @Tag("slow")
    @Test
    void killedWriterLosesNoAcknowledgedRecordThousandCycles() throws Exception {
        Totals totals = runCycles(Integer.getInteger("commitlog.test.killCycles", 1_000), SEED);
        System.out.printf("process kills (slow): %s (seed %d)%n", totals, SEED);
    }

    private record Id(int generation, int thread, int seq) {
    }

    static final class Totals {
        int kills;
        long acknowledged;
        long verified;
        long killedBeforeAnyAck;
        long discards;

        @Override
        public String toString() {
            return kills + " SIGKILLs, " + discards + " discards, " + acknowledged + " acknowledged records checked after their kill, "
                    + verified
                    + " record checks in total (cumulative over cycles)" + (killedBeforeAnyAck > 0 ? ", " + killedBeforeAnyAck
                    + " cycles killed before any acknowledgement" : "");
        }
    }

    private Totals runCycles(int cycles, long seed) throws Exception {
        Random random = new Random(seed);
        Totals totals = new Totals();
        Path logDir = null;
        Map<Id, Long> acknowledged = new HashMap<>();
        long[] discardedTo = {0}; // the highest position the child said it discards up to, in this directory
        // A slow machine may append too little in the cycles asked for to reach a discard: up to as many again then.
        for (int c = 0; c < cycles || (totals.discards == 0 && c < 2 * cycles); c++) {
            int cycle = c;
            if (cycle % CYCLES_PER_DIRECTORY == 0) {
                logDir = Files.createDirectories(dir.resolve("log-" + cycle));
                acknowledged.clear();
                discardedTo[0] = 0;
            }
            // Every fourth cycle the child appends with appendAsync and prints at each completion.
            boolean async = cycle % (KILLED_MODES.length + 1) == KILLED_MODES.length;
            SyncMode mode = async ? SyncMode.ADAPTIVE : KILLED_MODES[cycle % (KILLED_MODES.length + 1)];
            long appendMillis = 100 + random.nextInt(200);
            List<String> lines = runAndKill(logDir, mode, async, cycle, appendMillis, cycle);
            totals.kills++;
            int fresh = 0;
            for (String line : lines) {
                String[] parts = line.split(" ");
                if (parts.length == 2 && parts[0].equals(KillChild.DISCARD)) {
                    discardedTo[0] = Math.max(discardedTo[0], Long.parseLong(parts[1]));
                    totals.discards++;
                    continue;
                }
                assertEquals(4, parts.length, () -> "cycle " + cycle + ": malformed line '" + line + "'");
                Id id = new Id(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
                assertNull(acknowledged.put(id, Long.parseLong(parts[3])), () -> "cycle " + cycle + ": acknowledged twice: " + id);
                fresh++;
            }
            totals.acknowledged += fresh;
            if (fresh == 0) {
                totals.killedBeforeAnyAck++;
            }
            acknowledged.values().removeIf(position -> position < discardedTo[0]); // below a discard: allowed to go
            lastDiscardedTo = discardedTo[0];
            totals.verified += verify(logDir, mode, acknowledged, cycle, seed);
        }
        assertTrue(totals.acknowledged > totals.kills, "the children acknowledged records: " + totals);
        assertTrue(totals.discards > 0, "the children discarded: " + totals);
        return totals;
    }

    /** Starts the child, waits until it is ready, lets it append for a while, kills it; returns its complete output lines. */
    private List<String> runAndKill(Path logDir, SyncMode mode, boolean async, int generation, long appendMillis, int cycle)
            throws Exception {
        List<String> flags = new ArrayList<>(ChildJvm.jvmFlags());
        flags.addAll(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx64m", "-Xshare:auto"));
        List<String> command = ChildJvm.command(flags, KillChild.class, logDir.toString(), mode.name(), Integer.toString(THREADS),
                Integer.toString(generation), async ? KillChild.ASYNC : KillChild.SYNC, sectioned ? KillChild.SECTIONED : "plain");
        List<String> lines = new ArrayList<>(ChildKill.runAndKill(command, dir.resolve("child-" + cycle + ".err"),
                Duration.ofSeconds(60), appendMillis, "cycle " + cycle));
        assertEquals(KillableChild.READY, lines.remove(0), () -> "cycle " + cycle + ": the child's first line");
        return lines;
    }

    /** Reopens the directory with the production layer; checks every acknowledged record and all that replays. */
    private long lastDiscardedTo;

    private static String filesIn(Path logDir) {
        try (var files = Files.list(logDir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList().toString();
        } catch (IOException e) {
            return e.toString();
        }
    }

    private long verify(Path logDir, SyncMode mode, Map<Id, Long> acknowledged, int cycle, long seed) throws IOException {
        DamageReports damage = new DamageReports();
        Map<Long, byte[]> replayed = new HashMap<>();
        Map<Id, Long> seen = new HashMap<>();
        try (CommitLog log = CommitLog.open(KillChild.config(logDir, mode, sectioned),
                KillChild.options(sectioned).storage(new MappedStorageLayer()).corruptionListener(damage).build())) {
            long previous = -1;
            for (TestLogs.Entry entry : TestLogs.replayAll(log)) {
                assertTrue(entry.position() > previous);
                previous = entry.position();
                ByteBuffer b = ByteBuffer.wrap(entry.payload());
                Id id = new Id(b.getInt(), b.getInt(), b.getInt());
                assertArrayEquals(KillChild.record(id.generation(), id.thread(), id.seq()), entry.payload(),
                        () -> "cycle " + cycle + " (seed " + seed + "): a replayed record is not one that was appended: " + id);
                assertNull(seen.put(id, entry.position()), () -> "cycle " + cycle + ": " + id + " replays twice");
                replayed.put(entry.position(), entry.payload());
            }
        }
        assertTrue(damage.onlyTornTails(), () -> "cycle " + cycle + ": a kill caused damage other than a torn tail: " + damage);
        for (Map.Entry<Id, Long> ack : acknowledged.entrySet()) {
            Id id = ack.getKey();
            Long at = seen.get(id);
            assertNotNull(at, () -> "cycle " + cycle + " (seed " + seed + ", " + mode + "): acknowledged record " + id + " at position "
                    + ack.getValue() + " is missing after SIGKILL; " + replayed.size() + " records replayed, from "
                    + replayed.keySet().stream().min(Long::compare).orElse(-1L) + " to " + replayed.keySet().stream().max(Long::compare).orElse(-1L)
                    + "; files " + filesIn(logDir) + "; highest discard announced " + lastDiscardedTo);
            assertEquals(ack.getValue(), at, () -> "cycle " + cycle + ": " + id + " replays at another position than acknowledged");
        }
        return acknowledged.size();
    }
}
