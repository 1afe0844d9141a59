package dev.commitlog.raft.bench;

import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.raft.CommitLogLogStorage;
import dev.commitlog.raft.RaftCommitLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * Grows a shared log of {@code groups} groups to a number of retained bytes: {@value #THREADS}
 * threads, each appending to its share of the groups in turn a batch of 1 to 16 DATA entries of
 * {@code payload} bytes (so that the groups' entries interleave in the log as many active groups'
 * do), nothing truncated. The log runs as a node's does: the daemon thread writes checkpoints as
 * they fall due. Before the close, the newest of those is copied aside (a restart after a crash
 * starts from it); the close writes the last one.
 */
final class OpenTimeFill {
    static final SyncMode SYNC = SyncMode.ADAPTIVE;
    static final int THREADS = 4;
    private static final int MAX_BATCH = 16;

    private final Path dir;
    private final int groups;
    private final int payload;
    private final long[] lastIndex;
    private long entries;

    OpenTimeFill(Path dir, int groups, int payload) {
        this.dir = dir;
        this.groups = groups;
        this.payload = payload;
        this.lastIndex = new long[groups];
    }

    static String key(int group) {
        return "group-" + group;
    }

    long entries() {
        return entries;
    }

    /**
     * Appends until the log holds {@code retained} bytes, then closes it; returns the newest
     * checkpoint the daemon thread wrote before the close, copied to {@code aside} (null if none).
     */
    Path growTo(long retained, Path aside) throws IOException, InterruptedException {
        RaftCommitLog shared = RaftCommitLog.open(CommitLogConfig.builder(dir).syncMode(SYNC).build());
        try {
            List<CommitLogLogStorage> storages = new ArrayList<>(groups);
            for (int g = 0; g < groups; g++) {
                CommitLogLogStorage storage = shared.storage(key(g), new RaftOptions());
                if (!storage.init(new LogStorageOptions())) {
                    throw new IllegalStateException("init of " + key(g) + " failed");
                }
                storages.add(storage);
            }
            AtomicLong appended = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                threads.add(new Thread(() -> {
                    try {
                        appended.addAndGet(append(shared, storages, thread, retained));
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "fill-" + t));
            }
            threads.forEach(Thread::start);
            for (Thread thread : threads) {
                thread.join();
            }
            if (failure.get() != null) {
                throw new IllegalStateException("filling " + dir + " failed", failure.get());
            }
            entries += appended.get();
            storages.forEach(CommitLogLogStorage::shutdown);
            return copyNewestCheckpoint(aside);
        } finally {
            shared.close();
        }
    }

    private long append(RaftCommitLog shared, List<CommitLogLogStorage> storages, int thread, long retained) {
        Random random = new Random(thread);
        byte[] data = new byte[payload];
        random.nextBytes(data);
        long appended = 0;
        while (true) {
            for (int g = thread; g < groups; g += THREADS) {
                if (shared.log().durablePosition() >= retained) {
                    return appended;
                }
                int n = 1 + random.nextInt(MAX_BATCH);
                List<LogEntry> batch = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    LogEntry entry = new LogEntry(EntryType.ENTRY_TYPE_DATA);
                    entry.setId(new LogId(lastIndex[g] + 1 + i, 1));
                    entry.setData(ByteBuffer.wrap(data));
                    batch.add(entry);
                }
                int done = storages.get(g).appendEntries(batch);
                if (done != n) {
                    throw new IllegalStateException("appended " + done + " of " + n + " entries to " + key(g));
                }
                lastIndex[g] += n;
                appended += n;
            }
        }
    }

    private Path copyNewestCheckpoint(Path aside) throws IOException {
        List<Path> checkpoints = checkpoints(dir);
        if (checkpoints.isEmpty()) {
            return null;
        }
        Path newest = checkpoints.get(checkpoints.size() - 1);
        Files.createDirectories(aside);
        return Files.copy(newest, aside.resolve(newest.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }

    /** The checkpoint files in {@code dir}, oldest first (their names sort by start position). */
    static List<Path> checkpoints(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> file.getFileName().toString().startsWith("raft-index-")).sorted().toList();
        }
    }
}
