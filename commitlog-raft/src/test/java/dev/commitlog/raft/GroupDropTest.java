package dev.commitlog.raft;

import static dev.commitlog.raft.CommitLogLogStorageTest.mockEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.Ack;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.raft.SharedLogFixture.GroupSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RaftCommitLog#drop}: a durable DROP record empties a group for good: its entries stop
 * holding the shared log's segments, a restart does not bring it back, its key starts an empty
 * group later; and every call it refuses changes nothing.
 */
class GroupDropTest {
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

    private void fill() {
        fixture.fillInterleaved(GROUPS, ENTRIES, i -> mockEntry(i, 1, DATA));
    }

    private long awaitSegmentFilesAtMost(long most) throws InterruptedException {
        long files = fixture.segmentFiles();
        for (int i = 0; i < 500 && files > most; i++) {
            Thread.sleep(10);
            files = fixture.segmentFiles();
        }
        return files;
    }

    @Test
    void aDroppedLaggingGroupNoLongerHoldsTheSegments() throws IOException, InterruptedException {
        fill();
        List<String> filledNames = fixture.segmentFileNames();
        long filled = filledNames.size();
        assertTrue(fixture.storage("group-a").truncatePrefix(ENTRIES - 10));
        assertTrue(fixture.storage("group-b").truncatePrefix(ENTRIES - 10));
        // Every one still there; the allocator may have renamed the next segment into place meanwhile.
        List<String> held = fixture.segmentFileNames();
        assertTrue(held.containsAll(filledNames), "group-c holds every segment: " + filledNames + " before group-a and group-b "
                + "truncated, " + held + " after");
        int droppedId = fixture.shared.group("group-c").id;

        fixture.drop("group-c"); // compacts on its own: the cut moves by far more than a segment
        long left = awaitSegmentFilesAtMost(3);
        assertTrue(left <= 3, filled + " segment files before the drop, " + left + " after");

        GroupSnapshot a = fixture.snapshot("group-a");
        GroupSnapshot b = fixture.snapshot("group-b");
        for (int restart = 0; restart < 2; restart++) {
            fixture.restart();
            assertNull(fixture.shared.groups().find("group-c"), "group-c is not bound after restart " + (restart + 1));
            a.assertSameAs(fixture.snapshot("group-a"), "group-a");
            b.assertSameAs(fixture.snapshot("group-b"), "group-b");
        }
        CommitLogLogStorage again = fixture.storage("group-c");
        assertEquals(1, again.getFirstLogIndex());
        assertEquals(0, again.getLastLogIndex());
        assertNotEquals(droppedId, fixture.shared.group("group-c").id, "a new group, with an id of its own");
    }

    @Test
    void aRestartDoesNotBringADroppedGroupBackAndItsKeyStartsEmpty() throws IOException {
        fill();
        assertTrue(fixture.storage("group-b").truncateSuffix(100));
        fixture.drop("group-b");
        fixture.restart(); // the DROP record is in the log, after all of group-b's records
        assertNull(fixture.shared.groups().find("group-b"));

        CommitLogLogStorage fresh = fixture.storage("group-b");
        assertEquals(1, fresh.getFirstLogIndex());
        assertEquals(0, fresh.getLastLogIndex());
        assertNull(fresh.getEntry(5));
        assertTrue(fresh.appendEntry(mockEntry(1, 7, 16)));
        assertTrue(fresh.appendEntry(mockEntry(2, 7, 16)));
        GroupSnapshot before = fixture.snapshot("group-b");
        fixture.restart();
        GroupSnapshot after = fixture.snapshot("group-b");
        before.assertSameAs(after, "the new group-b");
        assertEquals(2, after.last());
        assertEquals(7, after.entries().get(0).getId().getTerm(), "the new group's entry, not the dropped group's");
        assertEquals(ENTRIES, fixture.storage("group-a").getLastLogIndex(), "other groups untouched");
    }

    /** A compaction that listed the groups before a drop and checkpoints them after it. */
    @Test
    void aCompactionRacingADropWritesNoCheckpointOfTheDroppedGroup() throws IOException, InterruptedException {
        fill();
        GroupCompaction compaction = fixture.shared.compaction();
        List<GroupState> listed = fixture.shared.groups().groups(); // group-a among them
        fixture.drop("group-a");
        assertTrue(fixture.storage("group-b").truncatePrefix(ENTRIES - 5));
        assertTrue(fixture.storage("group-c").truncatePrefix(ENTRIES - 5));
        int before = compaction.checkpoints();
        compaction.writeCheckpoints(Long.MAX_VALUE, listed); // every base lies below that cut
        assertEquals(before + 2, compaction.checkpoints(), "group-b and group-c only");
        fixture.shared.compact();
        assertTrue(awaitSegmentFilesAtMost(3) <= 3);
        for (int restart = 0; restart < 2; restart++) {
            fixture.restart(); // a checkpoint after the DROP would make this replay fail
            assertNull(fixture.shared.groups().find("group-a"));
            assertEquals(ENTRIES - 5, fixture.storage("group-b").getFirstLogIndex());
        }
    }

    @Test
    void anUnknownKeyIsRefusedAndNothingIsWritten() {
        fill();
        long end = fixture.shared.log().durablePosition();
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> fixture.shared.drop("no-such-group"));
        assertTrue(unknown.getMessage().contains("no Raft group of key no-such-group"), unknown.getMessage());
        fixture.drop("group-a");
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> fixture.shared.drop("group-a"));
        assertTrue(twice.getMessage().contains("group-a"), twice.getMessage());
        fixture.shared.log().sync();
        assertTrue(fixture.shared.log().durablePosition() > end, "the one drop wrote its record");
        long afterDrop = fixture.shared.log().durablePosition();
        assertThrows(IllegalArgumentException.class, () -> fixture.shared.drop("group-a"));
        fixture.shared.log().sync();
        assertEquals(afterDrop, fixture.shared.log().durablePosition(), "a refused drop writes nothing");
        assertThrows(NullPointerException.class, () -> fixture.shared.drop(null));
    }

    @Test
    void aLiveStorageIsRefusedAndKeepsItsGroup() {
        fill();
        CommitLogLogStorage live = fixture.storage("group-b");
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> fixture.shared.drop("group-b"));
        assertTrue(refused.getMessage().contains("cannot drop Raft group key group-b") && refused.getMessage().contains("shut the"),
                refused.getMessage());
        assertEquals(ENTRIES, live.getLastLogIndex());
        assertTrue(live.appendEntry(mockEntry(ENTRIES + 1, 1, 8)), "still live after the refused drop");
        assertTrue(fixture.shared.groups().find("group-b") != null);
    }

    @Test
    void aStorageDoesNotInitWhileItsKeyIsBeingDropped() {
        fill();
        fixture.storage("group-c").shutdown();
        assertTrue(fixture.shared.live().claim("group-c", LiveStorages.DROPPING) == null); // what drop holds while it runs
        try {
            CommitLogLogStorage storage = new CommitLogLogStorage(fixture.shared.host(), "group-c", new RaftOptions());
            LogStorageOptions opts = new LogStorageOptions();
            opts.setConfigurationManager(new ConfigurationManager());
            assertFalse(storage.init(opts));
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> fixture.shared.storage("group-c", new RaftOptions()));
            assertTrue(refused.getMessage().contains("is being dropped"), refused.getMessage());
        } finally {
            fixture.shared.live().release("group-c", LiveStorages.DROPPING);
        }
    }

    @Test
    void aDropAfterCloseIsRefused() {
        fill();
        fixture.storage("group-a").shutdown();
        fixture.shared.close();
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> fixture.shared.drop("group-a"));
        assertTrue(refused.getMessage().contains("is closed"), refused.getMessage());
    }

    @Test
    void aRecordOfADroppedGroupAfterItsDropFailsTheReplay() throws IOException {
        fill();
        int id = fixture.shared.group("group-a").id;
        fixture.drop("group-a");
        byte[] stray = RaftRecord.marker(RaftRecord.TRUNCATE_SUFFIX, id, 3);
        fixture.shared.log().append(stray, 0, stray.length, Ack.DURABLE);
        fixture.close();
        deleteIndexCheckpoints(); // the one close() wrote holds the group's state past the stray record: replay it all
        RaftCommitLog reopened = reopenWithoutStorages();
        try {
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> reopened.groups().groups());
            assertTrue(refused.getMessage().contains("names Raft group id " + id + ", which the DROP record at"), refused.getMessage());
        } finally {
            reopened.close();
        }
    }

    private void deleteIndexCheckpoints() throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(f -> IndexCheckpointDescriptor.startOf(f.getFileName().toString()) >= 0).toList()) {
                Files.delete(file);
            }
        }
    }

    /** Closes the fixture's log (closing it again at teardown does nothing) and opens the directory again, initing nothing. */
    private RaftCommitLog reopenWithoutStorages() throws IOException {
        fixture.close();
        return RaftCommitLog.open(CommitLogConfig.builder(directory).syncMode(SyncMode.BATCH).segmentSize(SEGMENT).build());
    }
}
