package dev.commitlog.raft;

import static dev.commitlog.raft.CommitLogLogStorageTest.mockEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.raft.SharedLogFixture.GroupSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many groups on one shared log: one replay serves every group's init, and interleaved groups survive restarts. */
class SharedLogGroupsTest {
    private static final int GROUPS = 6;

    @TempDir
    Path directory;

    private SharedLogFixture fixture;

    @BeforeEach
    void setup() throws IOException {
        fixture = new SharedLogFixture(directory, 1 << 20);
    }

    @AfterEach
    void teardown() {
        fixture.close();
    }

    private static String key(int group) {
        return "/var/lib/raft/group-" + group + "/log";
    }

    /** Rounds of one small batch per group, so the groups' records interleave in the log; then marks per group. */
    private void writeInterleaved() {
        for (int round = 0; round < 20; round++) {
            for (int g = 0; g < GROUPS; g++) {
                List<LogEntry> batch = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    batch.add(mockEntry(1 + round * 3 + i, 1 + g, 16 + g));
                }
                assertEquals(3, fixture.storage(key(g)).appendEntries(batch));
            }
        }
        assertTrue(fixture.storage(key(1)).truncatePrefix(10));
        assertTrue(fixture.storage(key(2)).truncateSuffix(30));
        assertTrue(fixture.storage(key(3)).reset(100));
        assertTrue(fixture.storage(key(4)).truncatePrefix(500)); // past the last entry: empty, first index 500
    }

    private List<GroupSnapshot> snapshots() {
        List<GroupSnapshot> all = new ArrayList<>();
        for (int g = 0; g < GROUPS; g++) {
            all.add(fixture.snapshot(key(g)));
        }
        return all;
    }

    @Test
    void everyGroupInitAfterRestartSharesOneReplay() throws IOException {
        writeInterleaved();
        List<GroupSnapshot> before = snapshots();
        assertEquals(1, fixture.shared.groups().loads());

        fixture.restart();
        assertEquals(1, fixture.shared.groups().loads(), "six inits, one load");
        assertEquals(0, fixture.shared.groups().replays(), "the load starts from the checkpoint written at close");
        SharedLogFixture.assertSame(before, snapshots(), "after restart");
        assertEquals(10, before.get(1).first());
        assertEquals(30, before.get(2).last());
        assertEquals(100, before.get(3).first());
        assertEquals(500, before.get(4).first());
        assertEquals(499, before.get(4).last());
        assertEquals(16, before.get(0).entries().get(0).getData().remaining(), "each group reads its own entries");
        assertEquals(21, before.get(5).entries().get(0).getData().remaining());
    }

    @Test
    void aStorageInitedAgainOnTheLiveLogSeesWhatOthersAppended() {
        writeInterleaved();
        CommitLogLogStorage first = fixture.storage(key(0));
        GroupSnapshot before = fixture.snapshot(key(0));

        // a second storage object for the same group, inited after the first one appended and shut down: the shared state is live
        assertTrue(first.appendEntry(mockEntry(61, 9, 8)));
        first.shutdown();
        CommitLogLogStorage second = fixture.shared.storage(key(0), new RaftOptions());
        LogStorageOptions opts = new LogStorageOptions();
        opts.setLogEntryCodecFactory(LogEntryV2CodecFactory.getInstance());
        assertTrue(second.init(opts));
        assertEquals(before.first(), second.getFirstLogIndex());
        assertEquals(61, second.getLastLogIndex());
        assertEquals(9, second.getEntry(61).getId().getTerm());

        // a group created after the others have appended starts empty
        CommitLogLogStorage later = fixture.storage("a-group-created-later");
        assertEquals(1, later.getFirstLogIndex());
        assertEquals(0, later.getLastLogIndex());
        assertTrue(later.appendEntry(mockEntry(1, 1, 4)));
        assertEquals(1, fixture.shared.groups().loads());
    }

    @Test
    void interleavedGroupsWithLaterGroupsSurviveRestarts() throws IOException {
        writeInterleaved();
        fixture.restart();
        assertTrue(fixture.storage("new").appendEntry(mockEntry(7, 2, 32)));
        assertTrue(fixture.storage(key(0)).appendEntry(mockEntry(61, 3, 32)));
        List<GroupSnapshot> before = snapshots();
        GroupSnapshot newGroup = fixture.snapshot("new");
        fixture.restart();
        SharedLogFixture.assertSame(before, snapshots(), "after restart");
        newGroup.assertSameAs(fixture.snapshot("new"), "new");
        assertEquals(7, newGroup.first());
    }

    @Test
    void aLogIsWrappedByOneRaftCommitLogAtATime() throws IOException {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> RaftCommitLog.over(fixture.shared.log()));
        assertTrue(refused.getMessage().contains("already wrapped"), refused.getMessage());

        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(directory.resolve("own")).syncMode(SyncMode.BATCH).build())) {
            RaftCommitLog first = RaftCommitLog.over(log);
            first.close(); // leaves the caller's log open
            try (RaftCommitLog second = RaftCommitLog.over(log)) {
                assertEquals(log, second.log());
            }
        }
    }
}
