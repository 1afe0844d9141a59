package dev.commitlog.raft;

import static dev.commitlog.raft.CommitLogLogStorageTest.mockEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.JRaftUtils;
import com.alipay.sofa.jraft.entity.EnumOutter;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import dev.commitlog.raft.SharedLogFixture.GroupSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discarding the shared log below what every group still needs: segments go once every group
 * truncates its prefix, a lagging group holds them, and the groups' state is the same after a
 * restart, also when the process stops between the checkpoints and the discard.
 */
class CompactionTest {
    private static final int SEGMENT = 64 * 1024;
    private static final int ENTRIES = 300;
    private static final int DATA = 1024;
    private static final String[] GROUPS = {"group-a", "group-b", "group-c"};

    @TempDir
    Path directory;

    private SharedLogFixture fixture;

    @BeforeEach
    void setup() throws IOException {
        fixture = new SharedLogFixture(directory, SEGMENT);
    }

    @AfterEach
    void teardown() {
        fixture.close();
    }

    /** ENTRIES entries of DATA bytes per group, in interleaved batches of ten; a configuration entry at index 5 of each. */
    private void fill() {
        fixture.fillInterleaved(GROUPS, ENTRIES, i -> i == 5 ? configuration(i) : mockEntry(i, 1, DATA));
    }

    private static LogEntry configuration(int index) {
        LogEntry entry = new LogEntry(EnumOutter.EntryType.ENTRY_TYPE_CONFIGURATION);
        entry.setId(new LogId(index, 1));
        entry.setPeers(JRaftUtils.getConfiguration("localhost:8081,localhost:8082,localhost:8083").listPeers());
        return entry;
    }

    private List<GroupSnapshot> snapshots() {
        List<GroupSnapshot> all = new ArrayList<>();
        for (String group : GROUPS) {
            all.add(fixture.snapshot(group));
        }
        return all;
    }

    /** Segment deletion may be deferred to the lifecycle thread; wait (bounded) for the count to drop to at most {@code most}. */
    private long awaitSegmentFilesAtMost(long most) throws InterruptedException {
        long files = fixture.segmentFiles();
        for (int i = 0; i < 500 && files > most; i++) {
            Thread.sleep(10);
            files = fixture.segmentFiles();
        }
        return files;
    }

    @Test
    void segmentsGoWhenEveryGroupTruncatesItsPrefix() throws IOException, InterruptedException {
        fill();
        long filled = fixture.segmentFiles();
        assertTrue(filled >= 10, "the groups fill " + filled + " segments");
        for (String group : GROUPS) {
            assertTrue(fixture.storage(group).truncatePrefix(ENTRIES - 10));
        }
        fixture.shared.compact();
        long left = awaitSegmentFilesAtMost(3);
        assertTrue(left <= 3, filled + " segment files before, " + left + " after every group kept only its last 10 entries");

        List<GroupSnapshot> before = snapshots();
        fixture.restart();
        SharedLogFixture.assertSame(before, snapshots(), "after restart");
        assertEquals(ENTRIES - 10, before.get(0).first());
        assertEquals(ENTRIES, before.get(0).last());
        assertEquals(DATA, before.get(2).entries().get(9).getData().remaining());
    }

    @Test
    void aLaggingGroupHoldsTheDiscardBack() throws IOException, InterruptedException {
        fill();
        List<String> filled = fixture.segmentFileNames();
        assertTrue(fixture.storage("group-a").truncatePrefix(ENTRIES - 10));
        assertTrue(fixture.storage("group-b").truncatePrefix(ENTRIES - 10));
        long lagging = fixture.shared.group("group-c").index().lowestPosition();
        long cut = fixture.shared.compact();
        assertTrue(cut <= lagging, "cut " + cut + " is above group-c's first entry at " + lagging);
        // Every one still there; the allocator may have prepared the next segment since the listing.
        List<String> after = fixture.segmentFileNames();
        assertTrue(after.containsAll(filled), filled + " segment files before the compaction, " + after + " after: one was discarded");

        List<GroupSnapshot> before = snapshots();
        fixture.restart();
        SharedLogFixture.assertSame(before, snapshots(), "after restart");
        assertEquals(1, before.get(2).first());
        assertEquals(List.of("5=localhost:8081,localhost:8082,localhost:8083"), before.get(2).configurations());

        assertTrue(fixture.storage("group-c").truncatePrefix(ENTRIES - 5));
        fixture.shared.compact();
        assertTrue(awaitSegmentFilesAtMost(3) <= 3, "group-c caught up: the segments go");
    }

    /**
     * Bounds set by records that end up below the cut: group-c's prefix truncation past its last
     * entry (nothing left to hold the cut back), group-b's suffix truncation and group-a's reset,
     * both followed by more entries; then every group truncates its prefix near its end.
     */
    @Test
    void stateIsTheSameAfterRestartFollowingADiscard() throws IOException, InterruptedException {
        fill();
        fixture.storage("group-c").truncatePrefix(ENTRIES + 50); // nothing left: first index 350, last 349
        fixture.storage("group-b").truncateSuffix(ENTRIES - 5);
        fixture.storage("group-a").reset(ENTRIES - 3); // keeps the old entry at that index
        fixture.storage("group-d").appendEntry(mockEntry(7, 3, 16)); // a group bound late, still below the cut
        for (long i = ENTRIES - 2; i < 2 * ENTRIES; i += 10) {
            for (String group : new String[] {"group-a", "group-b"}) {
                List<LogEntry> batch = new ArrayList<>();
                for (long j = i; j < i + 10; j++) {
                    batch.add(mockEntry((int) j, 2, DATA));
                }
                assertEquals(10, fixture.storage(group).appendEntries(batch));
            }
        }
        fixture.storage("group-d").truncatePrefix(8); // its only entry goes: it no longer holds the cut
        fixture.storage("group-a").truncatePrefix(2 * ENTRIES - 20);
        fixture.storage("group-b").truncatePrefix(2 * ENTRIES - 20);
        List<GroupSnapshot> before = snapshots();
        GroupSnapshot d = fixture.snapshot("group-d");
        long markersEnd = fixture.shared.group("group-a").index().lowestPosition();

        long cut = fixture.shared.compact();
        assertTrue(cut >= markersEnd, "the cut " + cut + " is past the early markers");
        assertTrue(awaitSegmentFilesAtMost(3) <= 3);
        for (int restart = 0; restart < 2; restart++) {
            fixture.restart();
            SharedLogFixture.assertSame(before, snapshots(), "after restart " + (restart + 1));
            d.assertSameAs(fixture.snapshot("group-d"), "group-d");
        }
        assertEquals(ENTRIES + 50, before.get(2).first());
        assertEquals(ENTRIES + 49, before.get(2).last());
        assertEquals(8, d.first());
        assertEquals(7, d.last());

        // the groups go on from there: an append below a discarded truncation is still refused
        assertEquals(0, fixture.storage("group-c").appendEntries(List.of(mockEntry(ENTRIES + 10, 2, 4))));
        assertTrue(fixture.storage("group-c").appendEntry(mockEntry(ENTRIES + 50, 2, 4)));
        fixture.restart();
        assertEquals(ENTRIES + 50, fixture.storage("group-c").getLastLogIndex());
    }

    @Test
    void aStopBetweenTheCheckpointsAndTheDiscardLosesNothing() throws IOException, InterruptedException {
        fill();
        for (String group : GROUPS) {
            fixture.storage(group).truncatePrefix(ENTRIES - 10);
        }
        fixture.storage("group-b").truncateSuffix(ENTRIES - 2);
        List<GroupSnapshot> before = snapshots();

        GroupCompaction compaction = fixture.shared.compaction();
        compaction.writeCheckpoints(compaction.lowestNeeded()); // the checkpoints are durable; no discard yet
        fixture.restart(); // replay meets the old markers and then the checkpoints
        SharedLogFixture.assertSame(before, snapshots(), "after restart");

        fixture.storage("group-a").appendEntry(mockEntry(ENTRIES + 1, 2, 8));
        before = snapshots();
        fixture.shared.compact(); // a second round of checkpoints, then the discard
        assertTrue(awaitSegmentFilesAtMost(3) <= 3);
        fixture.restart();
        SharedLogFixture.assertSame(before, snapshots(), "after restart");
    }
}
