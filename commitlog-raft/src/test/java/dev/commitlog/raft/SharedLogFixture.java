package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.conf.ConfigurationEntry;
import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * A shared log with several group storages over it, restartable (close and reopen the log, init
 * every storage again), and a snapshot of a group's whole visible state to compare across restarts.
 */
final class SharedLogFixture implements AutoCloseable {
    private final Path directory;
    private final int segmentSize;
    private final RaftLogOptions options;
    private final Map<String, CommitLogLogStorage> storages = new LinkedHashMap<>();
    RaftCommitLog shared;

    SharedLogFixture(Path directory, int segmentSize) throws IOException {
        this(directory, segmentSize, RaftLogOptions.defaults());
    }

    SharedLogFixture(Path directory, int segmentSize, RaftLogOptions options) throws IOException {
        this.directory = directory;
        this.segmentSize = segmentSize;
        this.options = options;
        this.shared = open();
    }

    private RaftCommitLog open() throws IOException {
        return RaftCommitLog.open(CommitLogConfig.builder(directory).syncMode(SyncMode.BATCH).segmentSize(segmentSize).build(), options);
    }

    /** The storage of {@code key}, inited on first use. */
    CommitLogLogStorage storage(String key) {
        return storages.computeIfAbsent(key, k -> init(shared.storage(k, new RaftOptions()), k));
    }

    private CommitLogLogStorage init(CommitLogLogStorage storage, String key) {
        LogStorageOptions opts = new LogStorageOptions();
        opts.setConfigurationManager(new ConfigurationManager());
        opts.setLogEntryCodecFactory(LogEntryV2CodecFactory.getInstance());
        assertTrue(storage.init(opts));
        return storage;
    }

    /**
     * {@code entries} entries per group, indexes 1 up, in batches of ten that take the groups in
     * turn, so every segment holds entries of every group.
     */
    void fillInterleaved(String[] groups, int entries, IntFunction<LogEntry> entry) {
        for (int from = 1; from <= entries; from += 10) {
            for (String group : groups) {
                List<LogEntry> batch = new ArrayList<>();
                for (int i = from; i < from + 10; i++) {
                    batch.add(entry.apply(i));
                }
                assertEquals(10, storage(group).appendEntries(batch));
            }
        }
    }

    /** What a process restart does: every storage shut down, the log closed and reopened, the storages inited again. */
    void restart() throws IOException {
        List<String> keys = new ArrayList<>(storages.keySet());
        storages.values().forEach(CommitLogLogStorage::shutdown);
        storages.clear();
        shared.close();
        shared = open();
        keys.forEach(this::storage);
    }

    /** What a node that leaves a group does: its storage shut down, then the group dropped from the shared log. */
    void drop(String key) {
        CommitLogLogStorage storage = storages.remove(key);
        if (storage != null) {
            storage.shutdown();
        }
        shared.drop(key);
    }

    /** Every index from first to last with its entry (null for a hole), and the configurations loaded at init. */
    record GroupSnapshot(long first, long last, List<LogEntry> entries, List<String> configurations) {
        /** Fails naming the first field or index that differs (the records' own toString is too long to read). */
        void assertSameAs(GroupSnapshot actual, String what) {
            assertEquals(first, actual.first, what + ": first index");
            assertEquals(last, actual.last, what + ": last index");
            assertEquals(configurations, actual.configurations, what + ": configurations");
            for (int i = 0; i < entries.size(); i++) {
                assertEquals(entries.get(i), actual.entries.get(i), what + ": entry " + (first + i));
            }
        }
    }

    static void assertSame(List<GroupSnapshot> expected, List<GroupSnapshot> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": groups");
        for (int g = 0; g < expected.size(); g++) {
            expected.get(g).assertSameAs(actual.get(g), what + ", group " + g);
        }
    }

    GroupSnapshot snapshot(String key) {
        CommitLogLogStorage storage = storage(key);
        List<LogEntry> entries = new ArrayList<>();
        for (long i = storage.getFirstLogIndex(); i <= storage.getLastLogIndex(); i++) {
            entries.add(storage.getEntry(i));
        }
        List<String> configurations = new ArrayList<>();
        ConfigurationManager confManager = new ConfigurationManager(); // what an init loads now, not at the storage's own init
        LogStorageOptions opts = new LogStorageOptions();
        opts.setConfigurationManager(confManager);
        assertTrue(storage.init(opts)); // the live storage inits again (a second storage of its key would be refused)
        for (long i = storage.getFirstLogIndex(); i <= storage.getLastLogIndex(); i++) {
            ConfigurationEntry conf = confManager.get(i);
            if (conf.getId().getIndex() == i) {
                configurations.add(i + "=" + conf.getConf());
            }
        }
        return new GroupSnapshot(storage.getFirstLogIndex(), storage.getLastLogIndex(), entries, configurations);
    }

    /** Bytes of the segment files in the directory now. */
    long segmentBytes() {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> p.getFileName().toString().startsWith(SegmentDescriptor.FILE_PREFIX)).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // deleted meanwhile
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    long segmentFiles() {
        return segmentFileNames().size();
    }

    /** The segment files' names, in order. */
    List<String> segmentFileNames() {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(SegmentDescriptor.FILE_PREFIX) && n.endsWith(SegmentDescriptor.FILE_SUFFIX)).sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        storages.values().forEach(CommitLogLogStorage::shutdown);
        shared.close();
    }
}
