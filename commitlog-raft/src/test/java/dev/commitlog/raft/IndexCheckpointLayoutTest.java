package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint file's layout: the worked example of docs/format.md byte for byte, every state
 * read back as written (holes, runs of every kind, positions going down), and what an entry costs.
 */
class IndexCheckpointLayoutTest {
    @TempDir
    Path directory;

    /**
     * docs/format.md, "Index checkpoint files": group 1, "orders-7", bound at 64; entries 1 to 8 at
     * 88, 216, 344, 472, 600 (100-byte DATA entries, 128-byte frames), 728 (a configuration
     * entry, 88-byte frame), 816 and 944; the checkpoint starts at 1072, its INDEX_CHECKPOINT
     * record right there.
     */
    @Test
    void theWorkedExampleOfTheFormatPage() throws RefusedCheckpoint {
        GroupState group = new GroupState(1);
        group.bind("orders-7", 64);
        long[] positions = {88, 216, 344, 472, 600, 728, 816, 944};
        for (int i = 0; i < positions.length; i++) {
            group.index().put(i + 1, positions[i]);
            group.noteEntry(i + 1, positions[i], i + 1 == 6);
        }
        IndexCheckpointEncoder encoder = new IndexCheckpointEncoder(1072, 2);
        encoder.group(group, 1072);
        byte[] file = encoder.finish(1072, 0x0123456789ABCDEFL);
        String hex = HexFormat.of().formatHex(file);
        System.out.println("worked example: " + file.length + " bytes: " + hex);
        assertEquals("434c524146544958" + "00000001" + "00000030" + "0000000000000430" + "0000000000000430" + "0123456789abcdef"
                + "00000002" + "00000001"
                + "01" + "08" + "6f72646572732d37" + "00" + "f007" + "00" + "02" + "08"
                + "01" + "05" + "d802"
                + "19" + "b001" + "8002"
                + "0a" + "b001" + "8002"
                + CRC_OF_THE_EXAMPLE, hex);

        LoadedCheckpoint loaded = IndexCheckpointDecoder.groups("example", file, IndexCheckpointDecoder.header("example", file));
        GroupState read = loaded.byId().get(1);
        assertEquals("orders-7", read.key());
        assertEquals(64, read.basePosition());
        for (int i = 0; i < positions.length; i++) {
            assertEquals(positions[i], read.index().get(i + 1));
        }
        assertEquals(List.of(6L), List.copyOf(read.configurations().keySet()));
        assertEquals(728L, read.configurations().get(6L));
        assertEquals(1072, loaded.after()[1]);
    }

    private static final String CRC_OF_THE_EXAMPLE = "c1b522a1";

    /** Random states (holes, jumps, positions going down, configurations) read back as written. */
    @Test
    void everyStateReadsBackAsWritten() throws RefusedCheckpoint {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            int groups = 1 + random.nextInt(5);
            long start = 1_000_000 + random.nextInt(1_000_000);
            IndexCheckpointEncoder encoder = new IndexCheckpointEncoder(start, groups + 1 + random.nextInt(3));
            List<String> written = new ArrayList<>();
            for (int id = 1; id <= groups; id++) {
                GroupState group = randomGroup(random, id, start);
                long after = start + random.nextInt(1000);
                encoder.group(group, after);
                written.add(describe(group) + " after " + after);
            }
            byte[] file = encoder.finish(start + 2000, random.nextLong());
            LoadedCheckpoint loaded = IndexCheckpointDecoder.groups("random", file, IndexCheckpointDecoder.header("random", file));
            for (int id = 1; id <= groups; id++) {
                assertEquals(written.get(id - 1), describe(loaded.byId().get(id)) + " after " + loaded.after()[id], "round " + round);
                assertScanned(loaded.byId().get(id).index(), "round " + round + ", group " + id);
            }
        }
    }

    private static GroupState randomGroup(Random random, int id, long start) {
        GroupState group = new GroupState(id);
        group.bind("group-" + id + "-" + random.nextInt(1000), random.nextInt((int) start));
        long first = 1 + random.nextInt(1000);
        if (random.nextBoolean()) {
            group.index().truncatePrefix(first);
        }
        int count = random.nextInt(300);
        long position = random.nextInt((int) start / 2);
        for (long i = first; i < first + count; i++) {
            if (random.nextInt(10) == 0) {
                i += random.nextInt(5); // a hole or a few
            }
            int move = random.nextInt(8);
            position = Math.max(0, Math.min(start - 1, position + (move < 5 ? 128 : move == 5 ? -random.nextInt(5000) : random.nextInt(20_000))));
            group.index().load(i, position); // positions going down: load, as a checkpoint's are, not the log's put
            group.noteEntry(i, position, random.nextInt(30) == 0);
        }
        group.index().loaded();
        return group;
    }

    /**
     * The loaded index's kept figures equal a scan of its slots: the lowest position (the
     * compaction's cut) and the entry count; and the next entry after the checkpoint is taken.
     */
    private static void assertScanned(PositionIndex index, String what) {
        long lowest = Long.MAX_VALUE;
        long entries = 0;
        long highest = -1;
        for (long i = index.first(); i <= index.last(); i++) {
            long position = index.get(i);
            if (position >= 0) {
                lowest = Math.min(lowest, position);
                highest = Math.max(highest, position);
                entries++;
            }
        }
        assertEquals(lowest, index.lowestPosition(), what + ": lowest position");
        assertEquals(entries, index.entries(), what + ": entries");
        index.put(index.last() + 1, highest + 1); // replay after the checkpoint puts above every loaded position
        assertEquals(entries == 0 ? highest + 1 : lowest, index.lowestPosition(), what + ": lowest position after a put");
    }

    private static String describe(GroupState group) {
        PositionIndex index = group.index();
        List<Long> positions = new ArrayList<>();
        for (long i = index.first(); i <= index.last(); i++) {
            positions.add(index.get(i));
        }
        return group.id + " " + group.key() + " base " + group.basePosition() + " [" + index.first() + ", " + index.last() + "] fixed "
                + index.firstFixed() + " " + group.configurations() + " " + positions;
    }

    /** One group appending in batches: its entries lie back to back, so a few STEP runs per segment hold them all. */
    @Test
    void entriesBackToBackCostAFractionOfAByte() throws IOException {
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(directory).syncMode(SyncMode.BATCH).build());
             RaftCommitLog shared = RaftCommitLog.over(log, RaftCommitLog.directoryFiles(log))) {
            CommitLogLogStorage storage = CheckpointDriver.init(shared, "group-a");
            int entries = 20_000;
            for (int from = 1; from <= entries; from += 200) {
                List<LogEntry> batch = new ArrayList<>();
                for (int i = from; i < from + 200; i++) {
                    LogEntry entry = new LogEntry(EntryType.ENTRY_TYPE_DATA);
                    entry.setId(new LogId(i, 1));
                    entry.setData(ByteBuffer.wrap(new byte[100]));
                    batch.add(entry);
                }
                assertEquals(200, storage.appendEntries(batch));
            }
            assertTrue(shared.checkpoint());
            long bytes = Files.size(directory.resolve(IndexCheckpointDescriptor.fileName(shared.checkpoints().lastStart())));
            double perEntry = (double) bytes / entries;
            System.out.printf("index checkpoint of %d entries back to back: %d bytes, %.3f per entry%n", entries, bytes, perEntry);
            assertTrue(perEntry < 0.05, "bytes per entry " + perEntry);
        }
    }

    /** Many groups interleaved with entries of varied sizes: each position is a delta of two or three bytes. */
    @Test
    void interleavedEntriesCostAFewBytes() throws RefusedCheckpoint {
        Random random = new Random(11);
        int groups = 100;
        int perGroup = 2_000;
        GroupState[] states = new GroupState[groups];
        for (int g = 0; g < groups; g++) {
            states[g] = new GroupState(g + 1);
            states[g].bind("group-" + g, 64 + 24L * g);
        }
        long position = 64 + 24L * groups;
        for (int i = 1; i <= perGroup; i++) {
            for (int g = 0; g < groups; g++) {
                states[g].index().put(i, position);
                position += 128 + 8L * random.nextInt(120);
            }
        }
        IndexCheckpointEncoder encoder = new IndexCheckpointEncoder(position, groups + 1);
        for (GroupState state : states) {
            encoder.group(state, position);
        }
        byte[] file = encoder.finish(position, 1);
        double perEntry = (double) file.length / (groups * perGroup);
        System.out.printf("index checkpoint of %d groups interleaved, %d entries each: %d bytes, %.2f per entry%n", groups, perGroup,
                file.length, perEntry);
        assertTrue(perEntry < 3.5, "bytes per entry " + perEntry);
        IndexCheckpointDecoder.groups("interleaved", file, IndexCheckpointDecoder.header("interleaved", file));
    }
}
