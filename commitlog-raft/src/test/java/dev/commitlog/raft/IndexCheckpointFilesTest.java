package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogFailedException;
import dev.commitlog.PositionDiscardedException;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.raft.RefusedCheckpoint.Reason;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One test per way a checkpoint file can be wrong: torn, a flipped bit, past the log's durable end,
 * of another history of the log, starting below the oldest segment left, a temporary file a crash
 * left; and a checkpoint never written of a failed log. Each time the load refuses the file by
 * its {@link Reason}, deletes it, and loads what a replay of the whole log builds.
 */
class IndexCheckpointFilesTest {
    private static final int SEGMENT = 64 * 1024;
    private static final List<String> KEYS = List.of("group-0", "group-1", "group-2");
    /** Other keys of the same lengths: a log of these has its records where a log of {@link #KEYS} has its own. */
    private static final List<String> OTHER_KEYS = List.of("other-0", "other-1", "other-2");

    @TempDir
    Path root;

    /** The log's own checkpoint files, written only when the test asks (and at close). */
    private static RaftCommitLog over(CommitLog log) {
        return RaftCommitLog.over(log, RaftCommitLog.directoryFiles(log));
    }

    private static CommitLogConfig config(Path dir) {
        return CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(SEGMENT).build();
    }

    /** {@code calls} random calls over the groups (seeded), and a compaction now and then. */
    private static void work(RaftCommitLog shared, long seed, int calls) {
        work(shared, seed, calls, true);
    }

    /**
     * As {@link #work(RaftCommitLog, long, int)}, compacting or not: a test that needs older positions
     * kept says not, and then no prefix is cut either (a prefix cut compacts).
     */
    private static void work(RaftCommitLog shared, long seed, int calls, boolean compact) {
        work(shared, seed, calls, compact, KEYS);
    }

    private static void work(RaftCommitLog shared, long seed, int calls, boolean compact, List<String> keys) {
        Random random = new Random(seed);
        List<CommitLogLogStorage> storages = keys.stream().map(key -> storageOf(shared, key)).toList();
        for (int i = 0; i < calls; i++) {
            CheckpointDriver.call(random, storages.get(random.nextInt(storages.size())), compact);
            if (compact && random.nextInt(20) == 0) {
                shared.compact();
            }
        }
        storages.forEach(CommitLogLogStorage::shutdown);
    }

    private static CommitLogLogStorage storageOf(RaftCommitLog shared, String key) {
        return CheckpointDriver.init(shared, key);
    }

    /** What a replay of the whole log in {@code dir} loads (no checkpoint read, none written, none deleted). */
    private static GroupStates replayed(Path dir) throws IOException {
        try (CommitLog log = CommitLog.open(config(dir))) {
            RaftCommitLog shared = RaftCommitLog.over(log, new NoCheckpointFiles());
            GroupStates states = GroupStates.of(shared);
            assertEquals(1, shared.groups().replays());
            shared.close();
            return states;
        }
    }

    /** Loads the groups of {@code dir} with its checkpoints; closes the log first, so that no checkpoint is written. */
    private static Loaded load(Path dir) throws IOException {
        try (CommitLog log = CommitLog.open(config(dir))) {
            RaftCommitLog shared = over(log);
            GroupStates states = GroupStates.of(shared);
            IndexCheckpointLoader.Result result = shared.checkpoints().loadResult();
            stopWithoutCheckpoint(log, shared);
            return new Loaded(states, result);
        }
    }

    private record Loaded(GroupStates states, IndexCheckpointLoader.Result result) {
        String usedFile() {
            return result.loaded() == null ? null : result.loaded().file();
        }

        List<Reason> reasons() {
            return result.refused().stream().map(RefusedCheckpoint::reason).toList();
        }
    }

    private static List<String> checkpointFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> IndexCheckpointDescriptor.startOf(name) >= 0)
                    .sorted().toList();
        }
    }

    private static void deleteCheckpoints(Path dir) throws IOException {
        for (String name : checkpointFiles(dir)) {
            Files.delete(dir.resolve(name));
        }
    }

    /** Two checkpoints of one log: the older one's bytes, and the directory holding the newer one. */
    private record TwoCheckpoints(String older, byte[] olderBytes, String newer, byte[] newerBytes) {
    }

    private TwoCheckpoints twoCheckpoints(Path dir) throws IOException {
        try (CommitLog log = CommitLog.open(config(dir))) {
            RaftCommitLog shared = over(log);
            work(shared, 1, 300);
            assertTrue(shared.checkpoint());
            String older = checkpointFiles(dir).get(0);
            byte[] olderBytes = Files.readAllBytes(dir.resolve(older));
            work(shared, 2, 300, false); // the older checkpoint's start stays
            assertTrue(shared.checkpoint());
            String newer = checkpointFiles(dir).get(0);
            stopWithoutCheckpoint(log, shared);
            return new TwoCheckpoints(older, olderBytes, newer, Files.readAllBytes(dir.resolve(newer)));
        }
    }

    /** A checkpoint file (its name and bytes) that lies past the end of the segments in its directory. */
    private record AheadOfTheSegments(String name, byte[] bytes) {
    }

    /**
     * A device that lost what it had acknowledged, or a log put back from a copy: 200 calls copied
     * away, 200 more and a checkpoint of them, then the segments put back to the copy. The
     * checkpoint stays, starting past the segments' end.
     */
    private AheadOfTheSegments checkpointAheadOfTheSegments(Path dir) throws IOException {
        Path older = root.resolve("older-segments");
        try (CommitLog log = CommitLog.open(config(dir)); RaftCommitLog shared = over(log)) {
            work(shared, 1, 200);
        }
        copySegments(dir, older);
        AheadOfTheSegments ahead;
        try (CommitLog log = CommitLog.open(config(dir))) {
            RaftCommitLog shared = over(log);
            work(shared, 2, 200);
            assertTrue(shared.checkpoint());
            String name = checkpointFiles(dir).get(0);
            ahead = new AheadOfTheSegments(name, Files.readAllBytes(dir.resolve(name)));
            stopWithoutCheckpoint(log, shared);
        }
        deleteSegments(dir);
        copySegments(older, dir);
        return ahead;
    }

    @Test
    void aTornCheckpointIsRefusedAndTheOlderOneIsUsed() throws IOException {
        Path dir = root.resolve("log");
        TwoCheckpoints two = twoCheckpoints(dir);
        GroupStates expected = replayed(dir);
        for (int length : new int[] {0, 3, 47, 48, 51, 52, two.newerBytes.length / 2, two.newerBytes.length - 5,
                two.newerBytes.length - 1}) {
            deleteCheckpoints(dir);
            Files.write(dir.resolve(two.older), two.olderBytes);
            Files.write(dir.resolve(two.newer), java.util.Arrays.copyOf(two.newerBytes, length));
            Loaded loaded = load(dir);
            String what = "newest checkpoint torn to " + length + " of " + two.newerBytes.length + " bytes";
            assertEquals(List.of(Reason.DAMAGED), loaded.reasons(), what);
            assertEquals(two.older, loaded.usedFile(), what);
            expected.assertSameAs(loaded.states, what);
            assertEquals(List.of(two.older), checkpointFiles(dir), what + ": the torn file is deleted");
        }
    }

    @Test
    void aFlippedBitAnywhereIsRefused() throws IOException {
        Path dir = root.resolve("log");
        TwoCheckpoints two = twoCheckpoints(dir);
        byte[] bytes = two.newerBytes;
        for (int offset = 0; offset < bytes.length; offset++) {
            byte[] flipped = bytes.clone();
            flipped[offset] ^= (byte) (1 << (offset % 8));
            int at = offset;
            RefusedCheckpoint refused = assertThrows(RefusedCheckpoint.class, () -> IndexCheckpointDecoder.header(two.newer, flipped),
                    () -> "bit " + (at % 8) + " of byte " + at + " flipped");
            assertEquals(Reason.DAMAGED, refused.reason());
        }
        GroupStates expected = replayed(dir);
        byte[] flipped = bytes.clone();
        flipped[bytes.length / 2] ^= 0x10;
        Files.write(dir.resolve(two.newer), flipped);
        Loaded loaded = load(dir);
        assertEquals(List.of(Reason.DAMAGED), loaded.reasons());
        assertNull(loaded.usedFile(), "the older checkpoint was deleted when the newer one was written");
        expected.assertSameAs(loaded.states, "a flipped bit in the only checkpoint");
    }

    @Test
    void aCheckpointPastTheDurableEndIsRefusedAndDeletedBeforeTheLogGrowsPastIt() throws IOException {
        Path dir = root.resolve("log");
        String past = checkpointAheadOfTheSegments(dir).name();
        GroupStates expected = replayed(dir);
        Loaded loaded = load(dir);
        assertEquals(List.of(Reason.PAST_DURABLE_END), loaded.reasons());
        assertNull(loaded.usedFile());
        expected.assertSameAs(loaded.states, "a checkpoint past the log's end");
        assertFalse(checkpointFiles(dir).contains(past), "refused, and deleted before anything is appended");

        // The log grows past where the refused checkpoint started; the next open must not meet it.
        try (CommitLog log = CommitLog.open(config(dir)); RaftCommitLog shared = over(log)) {
            work(shared, 3, 400);
            assertTrue(shared.log().durablePosition() > IndexCheckpointDescriptor.startOf(past));
        }
        GroupStates grown = replayed(dir);
        Loaded again = load(dir);
        assertTrue(again.reasons().isEmpty(), () -> "refused " + again.reasons());
        grown.assertSameAs(again.states, "after the log grew past the refused checkpoint");
    }

    @Test
    void aCheckpointOfAnotherHistoryIsRefused() throws IOException {
        Path dir = root.resolve("log");
        AheadOfTheSegments ahead = checkpointAheadOfTheSegments(dir);
        String name = ahead.name();
        byte[] bytes = ahead.bytes();
        // The log cut back to the copy, then grown past the checkpoint by other calls: positions reused, history not.
        try (CommitLog log = CommitLog.open(config(dir))) {
            RaftCommitLog shared = RaftCommitLog.over(log, new NoCheckpointFiles());
            work(shared, 4, 400, false); // the position of the checkpoint's INDEX_CHECKPOINT record stays
            IndexCheckpointDecoder.Header header = headerOf(name, bytes);
            assertTrue(log.durablePosition() > header.mark(), "the log grew past the checkpoint's INDEX_CHECKPOINT record");
            shared.close();
        }
        deleteCheckpoints(dir);
        Files.write(dir.resolve(name), bytes);
        GroupStates expected = replayed(dir);
        Loaded loaded = load(dir);
        assertEquals(List.of(Reason.NOT_VOUCHED_FOR), loaded.reasons());
        assertNull(loaded.usedFile());
        expected.assertSameAs(loaded.states, "a checkpoint of the log's earlier history");
    }

    /**
     * Two logs given the same calls on groups of other keys (of the same lengths): their records lie
     * at the same positions, so the other log's checkpoint has the same start and a record of the
     * same kind at its mark, with another nonce. Trusted, it would give this log the other's groups.
     */
    @Test
    void aCheckpointOfAnotherLogAtTheSamePositionsIsRefusedByItsNonce() throws IOException {
        Path mine = root.resolve("mine");
        Path other = root.resolve("other");
        String name = null;
        for (Path dir : List.of(mine, other)) {
            try (CommitLog log = CommitLog.open(config(dir))) {
                RaftCommitLog shared = over(log);
                work(shared, 1, 300, true, dir == mine ? KEYS : OTHER_KEYS);
                assertTrue(shared.checkpoint());
                String written = checkpointFiles(dir).get(0);
                assertTrue(name == null || name.equals(written), "both logs start their checkpoint at the same position");
                name = written;
                stopWithoutCheckpoint(log, shared);
            }
        }
        GroupStates expected = replayed(mine);
        Files.copy(other.resolve(name), mine.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        Loaded loaded = load(mine);
        expected.assertSameAs(loaded.states, "another log's checkpoint at the same positions");
        assertEquals(List.of(Reason.NOT_VOUCHED_FOR), loaded.reasons());
        assertNull(loaded.usedFile());
    }

    /**
     * A checkpoint whose start was discarded, vouched for by a record that is still there. Group 0
     * held entries 1 to 20 at the checkpoint; then it cut them all and appended entry 5 after a gap,
     * and group 1 moved the log on and cut its own, so that compaction discarded the segments of the
     * checkpoint's start and of the cut. Trusted, the checkpoint would give group 0 its old entries 1
     * to 4 again (the cut that dropped them is gone, and the compaction's CHECKPOINT record keeps the
     * entries it finds within its bounds), where a replay finds holes.
     */
    @Test
    void aCheckpointStartingBelowTheOldestSegmentIsRefused() throws IOException {
        Path dir = root.resolve("log");
        try (CommitLog log = CommitLog.open(config(dir))) {
            RaftCommitLog shared = over(log);
            CommitLogLogStorage group0 = CheckpointDriver.init(shared, KEYS.get(0));
            CommitLogLogStorage group1 = CheckpointDriver.init(shared, KEYS.get(1));
            assertTrue(group0.truncatePrefix(1)); // the first index is fixed: a later entry leaves a gap rather than moving it
            for (int i = 1; i <= 20; i++) {
                assertTrue(group0.appendEntry(CommitLogLogStorageTest.mockEntry(i, 1, 100)));
            }
            assertTrue(shared.checkpoint());
            String name = checkpointFiles(dir).get(0);
            byte[] bytes = Files.readAllBytes(dir.resolve(name));
            long start = IndexCheckpointDescriptor.startOf(name);

            assertTrue(group0.truncateSuffix(0));
            for (int i = 1; log.durablePosition() < start + 2L * SEGMENT; i++) {
                assertTrue(group1.appendEntry(CommitLogLogStorageTest.mockEntry(i, 1, 1024)));
            }
            assertTrue(group0.appendEntry(CommitLogLogStorageTest.mockEntry(5, 2, 100)));
            assertTrue(group1.truncatePrefix(group1.getLastLogIndex() + 1));
            shared.compact();
            assertTrue(discarded(log, start), "the checkpoint's start was discarded");

            long nonce = 42;
            byte[] mark = RaftRecord.indexCheckpoint(nonce, start);
            long markPosition = log.append(mark, 0, mark.length);
            log.sync();
            ByteBuffer.wrap(bytes).putLong(IndexCheckpointDescriptor.MARK_OFFSET, markPosition)
                    .putLong(IndexCheckpointDescriptor.NONCE_OFFSET, nonce);
            recomputeCrc(bytes);
            stopWithoutCheckpoint(log, shared);
            deleteCheckpoints(dir);
            Files.write(dir.resolve(name), bytes);
        }
        GroupStates expected = replayed(dir);
        Loaded loaded = load(dir);
        expected.assertSameAs(loaded.states, "a checkpoint whose start was discarded");
        assertEquals(List.of(Reason.DISCARDED), loaded.reasons());
    }

    @Test
    void aTemporaryFileACrashLeftIsDeleted() throws IOException {
        Path dir = root.resolve("log");
        try (CommitLog log = CommitLog.open(config(dir)); RaftCommitLog shared = over(log)) {
            work(shared, 1, 100);
        }
        String temporary = IndexCheckpointDescriptor.fileName(123) + IndexCheckpointDescriptor.TEMP_SUFFIX;
        Files.write(dir.resolve(temporary), new byte[] {1, 2, 3});
        Loaded loaded = load(dir);
        assertNotNull(loaded.usedFile());
        assertFalse(Files.exists(dir.resolve(temporary)));
    }

    @Test
    void aCheckpointIsWrittenOnceTheLogGrowsBySegment() throws Exception {
        Path dir = root.resolve("log");
        try (RaftCommitLog shared = RaftCommitLog.open(config(dir))) {
            GroupStates.of(shared); // loaded: the daemon thread takes checkpoints of loaded groups only
            work(shared, 1, 10);
            assertTrue(shared.log().durablePosition() < SEGMENT);
            Thread.sleep(2 * CheckpointTrigger.INTERVAL_MILLIS);
            assertEquals(0, shared.checkpoints().written(), "less than a segment appended");
            work(shared, 2, 400);
            assertTrue(shared.log().durablePosition() > SEGMENT);
            // Due within a second or two; the bound leaves room for a busy disk (the write fsyncs and renames).
            for (int i = 0; i < 600 && shared.checkpoints().written() == 0; i++) {
                Thread.sleep(50);
            }
            assertTrue(shared.checkpoints().written() >= 1, "a checkpoint within 30 s of the segment");
        }
    }

    @Test
    void noCheckpointIsWrittenOfAFailedLog() throws IOException {
        SimulatedDisk disk = new SimulatedDisk();
        Path dir = root.resolve("log");
        try (CommitLog log = CommitLog.open(config(dir), disk, (file, offset, position, reason, action) -> { })) {
            RaftCommitLog shared = RaftCommitLog.over(log, new DiskCheckpointFiles(disk, dir, () -> { }));
            CommitLogLogStorage storage = CheckpointDriver.init(shared, KEYS.get(0));
            assertTrue(storage.appendEntry(CommitLogLogStorageTest.mockEntry(1, 1, 16)));
            disk.failNextFlush();
            assertEquals(0, storage.appendEntries(List.of(CommitLogLogStorageTest.mockEntry(2, 1, 16))));
            assertThrows(CommitLogFailedException.class, shared::checkpoint);
            shared.close();
            assertTrue(new DiskCheckpointFiles(disk, dir, () -> { }).list().stream()
                    .noneMatch(name -> IndexCheckpointDescriptor.startOf(name) >= 0), "no checkpoint file of a failed log");
        }
    }

    /** The log closed before the wrapper: the wrapper's close then writes no checkpoint (as after a kill). */
    private static void stopWithoutCheckpoint(CommitLog log, RaftCommitLog shared) {
        log.close();
        shared.close();
    }

    private static boolean discarded(CommitLog log, long position) {
        try {
            log.tailer(position).close();
            return false;
        } catch (PositionDiscardedException e) {
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static IndexCheckpointDecoder.Header headerOf(String name, byte[] bytes) {
        try {
            return IndexCheckpointDecoder.header(name, bytes);
        } catch (RefusedCheckpoint e) {
            throw new AssertionError(e);
        }
    }

    private static void recomputeCrc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
    }

    private static void copySegments(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.filter(IndexCheckpointFilesTest::isSegment).toList()) {
                Files.copy(file, to.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static void deleteSegments(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(IndexCheckpointFilesTest::isSegment).toList()) {
                Files.delete(file);
            }
        }
    }

    private static boolean isSegment(Path file) {
        String name = file.getFileName().toString();
        return name.startsWith(SegmentDescriptor.FILE_PREFIX) && !name.equals("commitlog.lock");
    }
}
