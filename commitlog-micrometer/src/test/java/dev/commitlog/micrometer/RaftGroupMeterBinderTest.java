package dev.commitlog.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.raft.CommitLogLogStorage;
import dev.commitlog.raft.RaftCommitLog;
import dev.commitlog.raft.RaftGroupStats;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each Raft group's figures as meters tagged with its key; groups that start or go are followed by refresh. */
class RaftGroupMeterBinderTest {
    @TempDir
    Path dir;

    private static CommitLogLogStorage storage(RaftCommitLog raftLog, String key) {
        CommitLogLogStorage storage = raftLog.storage(key, new RaftOptions());
        LogStorageOptions opts = new LogStorageOptions();
        opts.setConfigurationManager(new ConfigurationManager());
        assertTrue(storage.init(opts));
        return storage;
    }

    private static void append(CommitLogLogStorage storage, int count) {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            LogEntry entry = new LogEntry(EntryType.ENTRY_TYPE_DATA);
            entry.setId(new LogId(storage.getLastLogIndex() + 1 + i, 1));
            entry.setData(ByteBuffer.wrap(new byte[64]));
            entries.add(entry);
        }
        assertEquals(count, storage.appendEntries(entries));
    }

    private static double gauge(SimpleMeterRegistry registry, String name, String group) {
        return registry.get(name).tag("group", group).gauge().value();
    }

    @Test
    void metersFollowEachGroup() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RaftCommitLog raftLog = RaftCommitLog.open(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).build());
        try {
            CommitLogLogStorage a = storage(raftLog, "a");
            CommitLogLogStorage b = storage(raftLog, "b");
            append(a, 10);
            append(b, 3);
            assertTrue(a.truncatePrefix(4));
            Tags directory = Tags.of("directory", dir.toString());
            RaftGroupMeterBinder binder = new RaftGroupMeterBinder(raftLog::groupStats, directory, 0, System::nanoTime);
            binder.bindTo(registry);

            RaftGroupStats stats = raftLog.groupStats("a").orElseThrow();
            assertEquals(7, gauge(registry, "commitlog.raft.group.entries", "a"));
            assertEquals(4, gauge(registry, "commitlog.raft.group.first.index", "a"));
            assertEquals(10, gauge(registry, "commitlog.raft.group.last.index", "a"));
            assertEquals(stats.pinnedBytes(), gauge(registry, "commitlog.raft.group.pinned", "a"));
            assertTrue(stats.pinnedBytes() > 0);
            assertEquals(10, registry.get("commitlog.raft.group.appends").tag("group", "a").functionCounter().count());
            assertEquals(3 * (1 + 1 + 16 + 64), registry.get("commitlog.raft.group.appended.bytes").tag("group", "b").functionCounter().count());
            append(a, 5);
            assertEquals(15, registry.get("commitlog.raft.group.appends").tag("group", "a").functionCounter().count(), "read at scrape");
            for (Meter meter : registry.getMeters()) {
                assertEquals(dir.toString(), meter.getId().getTag("directory"), meter.getId().toString());
            }
            assertEquals(12, registry.getMeters().size(), "six per group");

            storage(raftLog, "c");
            b.shutdown();
            raftLog.drop("b");
            assertTrue(Double.isNaN(gauge(registry, "commitlog.raft.group.entries", "b")), "a dropped group reads NaN until the refresh");
            binder.refresh();
            assertTrue(registry.find("commitlog.raft.group.entries").tag("group", "b").gauges().isEmpty(), "b's meters are gone");
            assertEquals(0, gauge(registry, "commitlog.raft.group.entries", "c"));
            assertEquals(12, registry.getMeters().size());

            raftLog.close();
            assertTrue(Double.isNaN(gauge(registry, "commitlog.raft.group.entries", "a")), "a closed log has no figures");
            assertThrows(IllegalStateException.class, () -> binder.bindTo(new SimpleMeterRegistry()));
        } finally {
            raftLog.close();
        }
    }

    @Test
    void theLogConstructorTagsTheDirectoryAndRefreshNeedsARegistry() throws Exception {
        try (RaftCommitLog raftLog = RaftCommitLog.open(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).build())) {
            storage(raftLog, "a");
            RaftGroupMeterBinder binder = new RaftGroupMeterBinder(raftLog);
            IllegalStateException unbound = assertThrows(IllegalStateException.class, binder::refresh);
            assertTrue(unbound.getMessage().contains("bindTo"), unbound.getMessage());
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            binder.bindTo(registry);
            assertEquals(raftLog.log().config().directory().toString(),
                    registry.get("commitlog.raft.group.entries").tag("group", "a").gauge().getId().getTag("directory"));
        }
    }
}
