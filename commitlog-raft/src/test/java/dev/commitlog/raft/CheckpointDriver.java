package dev.commitlog.raft;

import com.alipay.sofa.jraft.JRaftUtils;
import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random Raft storage calls on one group: appends continuing the group's log (plain DATA entries,
 * configuration and no-op entries through the codec), prefix and suffix truncations, resets; and,
 * on the shared log, compactions and checkpoints. The storage accepts every call a node could
 * make; the checkpoint tests compare what loads from the log, not a model.
 */
final class CheckpointDriver {
    private CheckpointDriver() {
    }

    static RaftOptions options() {
        RaftOptions options = new RaftOptions();
        options.setSync(true);
        return options;
    }

    static CommitLogLogStorage init(RaftCommitLog shared, String key) {
        CommitLogLogStorage storage = shared.storage(key, options());
        LogStorageOptions opts = new LogStorageOptions();
        opts.setConfigurationManager(new ConfigurationManager());
        opts.setLogEntryCodecFactory(LogEntryV2CodecFactory.getInstance());
        if (!storage.init(opts)) {
            throw new AssertionError("init of " + key + " failed");
        }
        return storage;
    }

    /** One random call on {@code storage}: mostly appends; the shared log's calls are the caller's. */
    static void call(Random random, CommitLogLogStorage storage) {
        call(random, storage, true);
    }

    /**
     * As {@link #call(Random, CommitLogLogStorage)}; without {@code cutsPrefix}, appends and suffix
     * truncations only: no prefix truncation or reset, which compact the shared log.
     */
    static void call(Random random, CommitLogLogStorage storage, boolean cutsPrefix) {
        long first = storage.getFirstLogIndex();
        long last = storage.getLastLogIndex();
        int choice = cutsPrefix ? random.nextInt(100) : random.nextInt(82);
        if (choice < 70) {
            int n = 1 + random.nextInt(12);
            List<LogEntry> entries = new ArrayList<>(n);
            long term = 1 + random.nextInt(3);
            for (int i = 0; i < n; i++) {
                entries.add(entry(random, last + 1 + i, term));
            }
            storage.appendEntries(entries);
        } else if (choice < 82) {
            storage.truncateSuffix(Math.max(0, first - 1 + random.nextInt((int) Math.max(1, last - first + 2))));
        } else if (choice < 94) {
            storage.truncatePrefix(first + random.nextInt((int) Math.max(1, last - first + 3)));
        } else {
            storage.reset(Math.max(1, first + random.nextInt((int) Math.max(1, last - first + 6))));
        }
    }

    /** A call on the shared log: a compaction or a checkpoint. */
    static void sharedCall(Random random, RaftCommitLog shared) {
        if (random.nextBoolean()) {
            shared.compact();
        } else {
            try {
                shared.checkpoint();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static LogEntry entry(Random random, long index, long term) {
        int kind = random.nextInt(20);
        LogEntry entry;
        if (kind == 0) {
            entry = new LogEntry(EntryType.ENTRY_TYPE_CONFIGURATION);
            entry.setPeers(JRaftUtils.getConfiguration("localhost:8081,localhost:8082,localhost:" + (8083 + random.nextInt(3)))
                    .listPeers());
        } else if (kind == 1) {
            entry = new LogEntry(EntryType.ENTRY_TYPE_NO_OP);
        } else {
            entry = new LogEntry(EntryType.ENTRY_TYPE_DATA);
            byte[] data = new byte[random.nextInt(4) == 0 ? 64 : random.nextInt(600)];
            random.nextBytes(data);
            entry.setData(ByteBuffer.wrap(data));
        }
        entry.setId(new LogId(index, term));
        return entry;
    }
}
