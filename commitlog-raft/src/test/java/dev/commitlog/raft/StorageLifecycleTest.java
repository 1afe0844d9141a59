package dev.commitlog.raft;

import static dev.commitlog.raft.CommitLogLogStorageTest.mockEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.testkit.CapturedLog;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One live storage per group key on a shared log, and what {@code init} says when it cannot serve:
 * the rules {@link RaftCommitLog#storage} and {@link CommitLogLogStorage#init} document.
 */
class StorageLifecycleTest {
    private static final String KEY = "orders-7";

    @TempDir
    Path directory;
    private RaftCommitLog shared;

    @BeforeEach
    void open() throws IOException {
        shared = RaftCommitLog.open(CommitLogConfig.builder(directory).syncMode(SyncMode.BATCH).build());
    }

    @AfterEach
    void close() {
        shared.close();
    }

    private static LogStorageOptions options() {
        LogStorageOptions opts = new LogStorageOptions();
        opts.setConfigurationManager(new ConfigurationManager());
        opts.setLogEntryCodecFactory(LogEntryV2CodecFactory.getInstance());
        return opts;
    }

    @Test
    void aSecondStorageOfALiveKeyIsRefusedUntilTheFirstShutsDown() {
        CommitLogLogStorage first = shared.storage(KEY, new RaftOptions());
        assertTrue(first.init(options()));
        assertTrue(first.appendEntry(mockEntry(1, 1, 8)));

        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> shared.storage(KEY, new RaftOptions()));
        assertTrue(refused.getMessage().contains("Raft group key " + KEY + " already has a live log storage"), refused.getMessage());
        assertTrue(refused.getMessage().contains("its own log URI"), refused.getMessage());
        CommitLogLogStorage other = shared.storage("another-group", new RaftOptions());
        assertTrue(other.init(options()), "other keys are not held");
        assertTrue(first.init(options()), "the live storage inits again: it holds its own key");

        first.shutdown();
        CommitLogLogStorage second = shared.storage(KEY, new RaftOptions());
        assertTrue(second.init(options()), "after the first shut down, a new storage of the key inits");
        assertEquals(1, second.getLastLogIndex(), "and sees the group's entries");
        second.shutdown();
        other.shutdown();
    }

    @Test
    void ofTwoStoragesMadeBeforeEitherInitsTheSecondInitReturnsFalseAndLogsWhy() {
        CommitLogLogStorage first = shared.storage(KEY, new RaftOptions());
        CommitLogLogStorage second = shared.storage(KEY, new RaftOptions());
        assertTrue(first.init(options()));
        try (CapturedLog err = new CapturedLog()) {
            assertFalse(second.init(options()));
            assertTrue(err.text().contains("Raft log storage " + KEY + ": init refused: Raft group key " + KEY
                    + " already has a live log storage"), err.text());
        }
        assertThrows(IllegalStateException.class, () -> second.appendEntry(mockEntry(1, 1, 8)),
                "a refused storage takes no entries");
        assertTrue(first.appendEntry(mockEntry(1, 1, 8)), "the refused init took nothing from the live one");

        first.shutdown();
        assertTrue(second.init(options()), "the first shut down: the second inits now");
        assertEquals(1, second.getLastLogIndex());
        second.shutdown();
    }

    @Test
    void twoNodesOfOneProcessWithTheSameLogUriGetOneStorage() {
        CommitLogJRaftServiceFactory factory = new CommitLogJRaftServiceFactory(shared);
        LogStorage first = factory.createLogStorage("same-uri", new RaftOptions());
        assertTrue(first.init(options()));
        assertThrows(IllegalStateException.class, () -> factory.createLogStorage("same-uri", new RaftOptions()));
        first.shutdown();
    }

    @Test
    void initAfterTheSharedLogClosedReturnsFalseAndLogsWhy() {
        CommitLogLogStorage loaded = shared.storage(KEY, new RaftOptions());
        assertTrue(loaded.init(options()));
        loaded.shutdown(); // the group's state stays loaded in the shared log
        CommitLogLogStorage unused = shared.storage("made-before-close", new RaftOptions());

        shared.close();
        try (CapturedLog err = new CapturedLog()) {
            assertFalse(loaded.init(options()), "a group already loaded");
            assertFalse(unused.init(options()), "a storage made before the close");
            assertEquals(2, count(err.text(), "init refused: the shared commit log " + directory + " is closed (RaftCommitLog.close() was called)"),
                    err.text());
        }
        assertThrows(IllegalStateException.class, () -> loaded.appendEntry(mockEntry(1, 1, 8)));
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> shared.storage(KEY, new RaftOptions()));
        assertTrue(refused.getMessage().contains("is closed"), refused.getMessage());
    }

    @Test
    void aStorageLiveWhenTheLogClosesHoldsNothingAfterwards() throws IOException {
        CommitLogLogStorage live = shared.storage(KEY, new RaftOptions());
        assertTrue(live.init(options()));
        shared.close();
        shared = RaftCommitLog.open(CommitLogConfig.builder(directory).syncMode(SyncMode.BATCH).build());
        CommitLogLogStorage reopened = shared.storage(KEY, new RaftOptions());
        assertTrue(reopened.init(options()), "a new shared log has no live storage");
        reopened.shutdown();
    }

    private static int count(String text, String fragment) {
        int count = 0;
        for (int at = text.indexOf(fragment); at >= 0; at = text.indexOf(fragment, at + 1)) {
            count++;
        }
        return count;
    }
}
