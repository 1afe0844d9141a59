package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.JRaftServiceFactory;
import com.alipay.sofa.jraft.JRaftUtils;
import com.alipay.sofa.jraft.conf.ConfigurationEntry;
import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.EnumOutter;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import com.alipay.sofa.jraft.util.JRaftServiceLoader;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cases of JRaft's own log storage tests (BaseLogStorageTest), plus restarts of the shared
 * log and groups sharing one log.
 */
class CommitLogLogStorageTest {
    private static final String GROUP = "group-a";

    @TempDir
    Path directory;

    private RaftCommitLog shared;
    private ConfigurationManager confManager;
    private CommitLogLogStorage logStorage;

    @BeforeEach
    void setup() throws IOException {
        shared = openShared();
        confManager = new ConfigurationManager();
        logStorage = newStorage(GROUP);
    }

    @AfterEach
    void teardown() {
        logStorage.shutdown();
        shared.close();
    }

    private RaftCommitLog openShared() throws IOException {
        return RaftCommitLog.open(CommitLogConfig.builder(directory).syncMode(SyncMode.BATCH)
                .segmentSize(32 * 1024 * 1024).build());
    }

    private CommitLogLogStorage newStorage(String group) {
        CommitLogLogStorage storage = shared.storage(group, new RaftOptions());
        assertTrue(storage.init(options()));
        return storage;
    }

    private LogStorageOptions options() {
        LogStorageOptions opts = new LogStorageOptions();
        opts.setConfigurationManager(confManager);
        opts.setLogEntryCodecFactory(LogEntryV2CodecFactory.getInstance());
        return opts;
    }

    /** Closes and reopens the shared log and the storage: what a process restart does. */
    private void restart() throws IOException {
        logStorage.shutdown();
        shared.close();
        shared = openShared();
        confManager = new ConfigurationManager();
        logStorage = newStorage(GROUP);
    }

    static LogEntry mockEntry(int index, int term) {
        return mockEntry(index, term, 0);
    }

    static LogEntry mockEntry(int index, int term, int dataSize) {
        LogEntry entry = new LogEntry(EnumOutter.EntryType.ENTRY_TYPE_NO_OP);
        entry.setId(new LogId(index, term));
        if (dataSize > 0) {
            byte[] data = new byte[dataSize];
            ThreadLocalRandom.current().nextBytes(data);
            entry.setData(ByteBuffer.wrap(data));
        }
        return entry;
    }

    static List<LogEntry> mockEntries(int n) {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            LogEntry entry = mockEntry(i, i);
            if (i > 0) {
                entry.setData(ByteBuffer.wrap(String.valueOf(i).getBytes(StandardCharsets.UTF_8)));
            }
            entries.add(entry);
        }
        return entries;
    }

    @SuppressWarnings("deprecation")
    private long term(long index) {
        return logStorage.getTerm(index);
    }

    @Test
    void emptyState() {
        assertEquals(1, logStorage.getFirstLogIndex());
        assertEquals(0, logStorage.getLastLogIndex());
        assertNull(logStorage.getEntry(100));
        assertEquals(0, term(100));
    }

    @Test
    void addOneEntryState() {
        LogEntry entry1 = mockEntry(100, 1);
        assertTrue(logStorage.appendEntry(entry1));
        assertEquals(100, logStorage.getFirstLogIndex());
        assertEquals(100, logStorage.getLastLogIndex());
        assertEquals(entry1, logStorage.getEntry(100));
        assertEquals(1, term(100));

        LogEntry entry2 = mockEntry(200, 2);
        assertTrue(logStorage.appendEntry(entry2));
        assertEquals(100, logStorage.getFirstLogIndex());
        assertEquals(200, logStorage.getLastLogIndex());
        assertEquals(entry1, logStorage.getEntry(100));
        assertEquals(entry2, logStorage.getEntry(200));
        assertEquals(1, term(100));
        assertEquals(2, term(200));
        assertNull(logStorage.getEntry(150));
    }

    @Test
    void loadWithConfigManager() {
        assertTrue(confManager.getLastConfiguration().isEmpty());

        LogEntry confEntry1 = new LogEntry(EnumOutter.EntryType.ENTRY_TYPE_CONFIGURATION);
        confEntry1.setId(new LogId(99, 1));
        confEntry1.setPeers(JRaftUtils.getConfiguration("localhost:8081,localhost:8082").listPeers());
        LogEntry confEntry2 = new LogEntry(EnumOutter.EntryType.ENTRY_TYPE_CONFIGURATION);
        confEntry2.setId(new LogId(100, 2));
        confEntry2.setPeers(JRaftUtils.getConfiguration("localhost:8081,localhost:8082,localhost:8083").listPeers());

        assertTrue(logStorage.appendEntry(confEntry1));
        assertEquals(1, logStorage.appendEntries(Arrays.asList(confEntry2)));

        logStorage.shutdown();
        logStorage = newStorage(GROUP);

        ConfigurationEntry conf = confManager.getLastConfiguration();
        assertNotNull(conf);
        assertFalse(conf.isEmpty());
        assertEquals("localhost:8081,localhost:8082,localhost:8083", conf.getConf().toString());
        conf = confManager.get(99);
        assertNotNull(conf);
        assertFalse(conf.isEmpty());
        assertEquals("localhost:8081,localhost:8082", conf.getConf().toString());
    }

    @Test
    void addManyEntries() {
        List<LogEntry> entries = mockEntries(10);
        assertEquals(10, logStorage.appendEntries(entries));
        assertEquals(0, logStorage.getFirstLogIndex());
        assertEquals(9, logStorage.getLastLogIndex());
        for (int i = 0; i < 10; i++) {
            assertEquals(i, term(i));
            assertEquals(entries.get(i), logStorage.getEntry(i));
        }
    }

    @Test
    void reset() throws IOException {
        addManyEntries();
        assertTrue(logStorage.reset(5));
        assertResetTo5();
        restart();
        assertResetTo5();
    }

    private void assertResetTo5() {
        assertEquals(5, logStorage.getFirstLogIndex());
        assertEquals(5, logStorage.getLastLogIndex());
        assertEquals(5, term(5));
        assertNull(logStorage.getEntry(4));
        assertNull(logStorage.getEntry(6));
    }

    @Test
    void resetPastTheLastEntryKeepsANoOpOfTermZero() throws IOException {
        addManyEntries();
        assertTrue(logStorage.reset(20));
        assertEquals(20, logStorage.getFirstLogIndex());
        assertEquals(20, logStorage.getLastLogIndex());
        assertEquals(0, term(20));
        assertEquals(EnumOutter.EntryType.ENTRY_TYPE_NO_OP, logStorage.getEntry(20).getType());
        assertThrows(IllegalArgumentException.class, () -> logStorage.reset(0));
    }

    @Test
    void truncatePrefix() throws IOException {
        List<LogEntry> entries = mockEntries(10);
        assertEquals(10, logStorage.appendEntries(entries));
        assertTrue(logStorage.truncatePrefix(5));
        assertPrefixTruncated(entries);
        restart();
        assertPrefixTruncated(entries);
        assertFalse(logStorage.appendEntry(mockEntry(3, 3)), "below the first index kept");
    }

    private void assertPrefixTruncated(List<LogEntry> entries) {
        assertEquals(5, logStorage.getFirstLogIndex());
        assertEquals(9, logStorage.getLastLogIndex());
        for (int i = 0; i < 10; i++) {
            if (i < 5) {
                assertNull(logStorage.getEntry(i));
            } else {
                assertEquals(entries.get(i), logStorage.getEntry(i));
            }
        }
    }

    @Test
    void truncateSuffix() throws IOException {
        List<LogEntry> entries = mockEntries(10);
        assertEquals(10, logStorage.appendEntries(entries));
        assertTrue(logStorage.truncateSuffix(5));
        assertSuffixTruncated(entries);
        restart();
        assertSuffixTruncated(entries);
    }

    private void assertSuffixTruncated(List<LogEntry> entries) {
        assertEquals(0, logStorage.getFirstLogIndex());
        assertEquals(5, logStorage.getLastLogIndex());
        for (int i = 0; i < 10; i++) {
            if (i <= 5) {
                assertEquals(entries.get(i), logStorage.getEntry(i));
            } else {
                assertNull(logStorage.getEntry(i));
            }
        }
    }

    @Test
    void entriesRewrittenAfterATruncateSuffixSurviveRestart() throws IOException {
        assertEquals(10, logStorage.appendEntries(mockEntries(10)));
        assertTrue(logStorage.truncateSuffix(5));
        List<LogEntry> rewritten = new ArrayList<>();
        for (int i = 6; i < 8; i++) {
            rewritten.add(mockEntry(i, 20 + i, 8));
        }
        assertEquals(2, logStorage.appendEntries(rewritten));
        restart();
        assertEquals(7, logStorage.getLastLogIndex());
        assertEquals(rewritten.get(0), logStorage.getEntry(6));
        assertEquals(27, term(7));
        assertNull(logStorage.getEntry(8));
    }

    @Test
    void appendManyLargeEntries() throws IOException {
        appendLargeEntries(0, 1000, 1024, 10);
        int totalLogs = 3000;
        int logSize = 16 * 1024;
        appendLargeEntries(0, totalLogs, logSize, 300); // 300: more than one commit-log batch per call
        assertLargeEntries(totalLogs, logSize);
        restart();
        assertLargeEntries(totalLogs, logSize);
    }

    private void appendLargeEntries(int from, int totalLogs, int logSize, int batch) {
        for (int i = from; i < totalLogs; i += batch) {
            List<LogEntry> entries = new ArrayList<>(batch);
            for (int j = i; j < i + batch; j++) {
                entries.add(mockEntry(j, j, logSize));
            }
            assertEquals(batch, logStorage.appendEntries(entries));
        }
    }

    private void assertLargeEntries(int totalLogs, int logSize) {
        assertEquals(0, logStorage.getFirstLogIndex());
        assertEquals(totalLogs - 1, logStorage.getLastLogIndex());
        for (int i = 0; i < totalLogs; i++) {
            LogEntry log = logStorage.getEntry(i);
            assertNotNull(log);
            assertEquals(i, log.getId().getIndex());
            assertEquals(i, log.getId().getTerm());
            assertEquals(logSize, log.getData().remaining());
        }
    }

    @Test
    void restartKeepsEntriesAndMarkers() throws IOException {
        List<LogEntry> entries = mockEntries(10);
        assertEquals(10, logStorage.appendEntries(entries));
        assertTrue(logStorage.truncatePrefix(2));
        assertTrue(logStorage.truncateSuffix(7));
        restart();
        assertEquals(2, logStorage.getFirstLogIndex());
        assertEquals(7, logStorage.getLastLogIndex());
        for (int i = 2; i <= 7; i++) {
            assertEquals(entries.get(i), logStorage.getEntry(i));
        }
        assertNull(logStorage.getEntry(1));
        assertNull(logStorage.getEntry(8));
    }

    @Test
    void groupsSharingOneLogDoNotSeeEachOther() throws IOException {
        CommitLogLogStorage other = newStorage("group-b");
        List<LogEntry> mine = mockEntries(10);
        List<LogEntry> theirs = new ArrayList<>();
        for (int i = 100; i < 105; i++) {
            theirs.add(mockEntry(i, 7, 16));
        }
        assertEquals(10, logStorage.appendEntries(mine));
        assertEquals(5, other.appendEntries(theirs));
        assertTrue(other.truncateSuffix(102)); // a marker of group-b does not cut group-a
        assertTrue(logStorage.truncatePrefix(3));

        for (int round = 0; round < 2; round++) {
            assertEquals(3, logStorage.getFirstLogIndex());
            assertEquals(9, logStorage.getLastLogIndex());
            assertEquals(100, other.getFirstLogIndex());
            assertEquals(102, other.getLastLogIndex());
            assertNull(logStorage.getEntry(100));
            assertNull(other.getEntry(5));
            assertEquals(mine.get(5), logStorage.getEntry(5));
            assertEquals(theirs.get(1), other.getEntry(101));
            other.shutdown();
            restart();
            other = newStorage("group-b");
        }
        other.shutdown();
    }

    @Test
    void periodicSyncIsRefusedWhenRaftAsksForSync() throws IOException {
        shared.close();
        shared = RaftCommitLog.open(CommitLogConfig.builder(directory.resolve("periodic")).syncMode(SyncMode.PERIODIC).build());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> shared.storage("p", new RaftOptions()));
        assertTrue(refused.getMessage().contains("periodic"), refused.getMessage());

        RaftOptions noSync = new RaftOptions();
        noSync.setSync(false);
        CommitLogLogStorage storage = shared.storage("p", noSync);
        assertTrue(storage.init(options()));
        assertTrue(storage.appendEntry(mockEntry(1, 1, 4)));
        assertEquals(1, storage.getEntry(1).getId().getTerm());
    }

    @Test
    void serviceFactoryCreatesCommitLogStorageAndIsRegistered() {
        LogStorage created = new CommitLogJRaftServiceFactory(shared).createLogStorage("node-uri", new RaftOptions());
        assertTrue(created instanceof CommitLogLogStorage);
        assertEquals("node-uri", ((CommitLogLogStorage) created).groupKey());

        JRaftServiceFactory found = JRaftServiceLoader.load(JRaftServiceFactory.class).find(CommitLogJRaftServiceFactory.SPI_NAME);
        assertTrue(found instanceof CommitLogJRaftServiceFactory);
        assertFalse(JRaftServiceLoader.load(JRaftServiceFactory.class).first() instanceof CommitLogJRaftServiceFactory,
                "the default factory stays the default");
    }
}
