package dev.commitlog.raft;

import static dev.commitlog.raft.CommitLogLogStorageTest.mockEntry;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Figures for choosing between rewriting lagging groups forward and asking the node to snapshot
 * them (docs/raft.md, "Lagging groups"). Not a test: run it on a quiet machine, on a real disk.
 *
 * <pre>
 * java -cp ... dev.commitlog.raft.LaggingGroupProbe rewrite DIR     # cost of one rewrite by live entries and size
 * java -cp ... dev.commitlog.raft.LaggingGroupProbe bound DIR       # 100 groups, 10x the bound, each policy
 * </pre>
 */
public final class LaggingGroupProbe {
    private static final int GROUPS = 100;
    private static final int DRIVERS = 10;

    private LaggingGroupProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 1 ? args[1] : "target/lagging-probe");
        switch (args.length > 0 ? args[0] : "") {
            case "rewrite" -> rewriteCost(dir);
            case "bound" -> bound(dir);
            default -> {
                System.err.println("usage: LaggingGroupProbe rewrite|bound DIR");
                System.exit(2);
            }
        }
    }

    private static LogStorageOptions storageOptions() {
        LogStorageOptions opts = new LogStorageOptions();
        opts.setConfigurationManager(new ConfigurationManager());
        opts.setLogEntryCodecFactory(LogEntryV2CodecFactory.getInstance());
        return opts;
    }

    private static void clean(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(dir);
    }

    /** One group of {@code live} entries of {@code size} bytes, rewritten forward again and again; time and bytes per rewrite. */
    private static void rewriteCost(Path dir) throws IOException {
        System.out.println("| live entries | data | bytes copied | rewrites | median ms | max ms | MB/s |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
        for (int size : new int[] {128, 1024}) {
            for (int live : new int[] {10, 100, 1_000, 10_000}) {
                clean(dir);
                try (RaftCommitLog shared = RaftCommitLog.open(CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).build())) {
                    CommitLogLogStorage storage = shared.storage("g", new RaftOptions());
                    storage.init(storageOptions());
                    for (int from = 1; from <= live; from += 256) {
                        List<LogEntry> batch = new ArrayList<>();
                        for (int i = from; i < Math.min(from + 256, live + 1); i++) {
                            batch.add(mockEntry(i, 1, size));
                        }
                        storage.appendEntries(batch);
                    }
                    GroupState state = shared.group("g");
                    int repeats = live >= 10_000 ? 7 : 21;
                    long[] nanos = new long[repeats];
                    long bytes = 0;
                    for (int r = 0; r < repeats; r++) {
                        long t0 = System.nanoTime();
                        bytes = shared.rewrite().rewrite(state, Long.MAX_VALUE);
                        nanos[r] = System.nanoTime() - t0;
                        shared.compact();
                    }
                    Arrays.sort(nanos);
                    double median = nanos[repeats / 2] / 1e6;
                    System.out.printf("| %,d | %d B | %,d | %d | %.2f | %.2f | %.0f |%n", live, size, bytes, repeats, median,
                            nanos[repeats - 1] / 1e6, bytes / 1e6 / (median / 1e3));
                    storage.shutdown();
                }
            }
        }
    }

    /** What one policy is, for the bound runs. */
    private record Policy(String name, long maxRewriteBytes, long snapshotDelayMillis, boolean laggingKeepsAppending) {
    }

    private static void bound(Path dir) throws Exception {
        int segment = 256 * 1024;
        long bound = 16L * segment;
        List<Policy> policies = List.of(
                new Policy("no bound", -1, -1, false),
                new Policy("rewrite only", bound / 16, -1, false),
                new Policy("callback, snapshot at once", 0, 0, false),
                new Policy("callback, snapshot after 100 ms", 0, 100, false),
                new Policy("callback, snapshot after 1 s", 0, 1000, false),
                new Policy("rewrite only, lagging group keeps appending", bound / 16, -1, true),
                new Policy("rewrite + callback at once, lagging group keeps appending", bound / 16, 0, true));
        System.out.printf("bound %,d B, segment %,d B, %d groups, 1 KiB entries, %d driver threads, 10x the bound appended%n", bound, segment,
                GROUPS, DRIVERS);
        System.out.println("| policy | max span B | max files B | within bound | rewrites | bytes rewritten | listener calls | snapshots | s | MB/s |");
        System.out.println("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|");
        for (Policy policy : policies) {
            clean(dir);
            run(dir, segment, bound, policy);
        }
    }

    private static void run(Path dir, int segment, long bound, Policy policy) throws Exception {
        CommitLogLogStorage[] storages = new CommitLogLogStorage[GROUPS];
        ScheduledExecutorService snapshots = Executors.newSingleThreadScheduledExecutor();
        Set<String> pending = ConcurrentHashMap.newKeySet();
        long[] snapshotCount = new long[1];
        RaftLogOptions.Builder options = RaftLogOptions.builder();
        if (policy.maxRewriteBytes() >= 0) {
            options.maxRetainedBytes(bound).maxRewriteBytes(policy.maxRewriteBytes());
        }
        if (policy.snapshotDelayMillis() >= 0) {
            // The node: a snapshot that takes the delay, one per group at a time, then JRaft's prefix truncation.
            options.laggingGroupListener((key, position, pinned) -> {
                if (pending.add(key)) {
                    snapshots.schedule(() -> {
                        CommitLogLogStorage storage = storages[Integer.parseInt(key.substring(6))];
                        storage.truncatePrefix(storage.getLastLogIndex() + 1);
                        synchronized (snapshotCount) {
                            snapshotCount[0]++;
                        }
                        pending.remove(key);
                    }, policy.snapshotDelayMillis(), TimeUnit.MILLISECONDS);
                }
            });
        }
        CommitLogConfig config = CommitLogConfig.builder(dir).syncMode(SyncMode.BATCH).segmentSize(segment).build();
        try (RaftCommitLog shared = RaftCommitLog.open(config, options.build())) {
            for (int g = 0; g < GROUPS; g++) {
                storages[g] = shared.storage("group-" + g, new RaftOptions());
                storages[g].init(storageOptions());
            }
            long start = shared.log().durablePosition();
            long began = System.nanoTime();
            long maxSpan = 0;
            long maxFiles = 0;
            ExecutorService drivers = Executors.newFixedThreadPool(DRIVERS);
            try {
                for (int round = 0; shared.log().durablePosition() - start < 10 * bound; round++) {
                    List<Future<?>> done = new ArrayList<>();
                    for (int d = 0; d < DRIVERS; d++) {
                        int driver = d;
                        int thisRound = round;
                        done.add(drivers.submit(() -> {
                            for (int g = driver; g < GROUPS; g += DRIVERS) {
                                step(storages[g], g, thisRound, policy.laggingKeepsAppending());
                            }
                            return null;
                        }));
                    }
                    for (Future<?> each : done) {
                        each.get();
                    }
                    maxSpan = Math.max(maxSpan, shared.log().durablePosition() - shared.compaction().lowestNeeded());
                    maxFiles = Math.max(maxFiles, segmentBytes(dir));
                }
            } finally {
                drivers.shutdownNow();
                snapshots.shutdownNow();
            }
            double seconds = (System.nanoTime() - began) / 1e9;
            long appended = shared.log().durablePosition() - start;
            System.out.printf("| %s | %,d | %,d | %s | %d | %,d | %d | %d | %.1f | %.1f |%n", policy.name(), maxSpan, maxFiles,
                    maxFiles <= bound ? "yes" : "no", shared.rewrite().rewrites(), shared.rewrite().bytesRewritten(),
                    shared.bound().listenerCalls(), snapshotCount[0], seconds, appended / 1e6 / seconds);
        }
    }

    /** As LaggingGroupBoundTest's rounds; the lagging group appends one entry every 10 rounds, or two every round. */
    private static void step(CommitLogLogStorage storage, int g, int round, boolean laggingKeepsAppending) {
        long last = storage.getLastLogIndex();
        if (g == 0) {
            if (laggingKeepsAppending) {
                storage.appendEntries(List.of(mockEntry((int) last + 1, 1, 1024), mockEntry((int) last + 2, 1, 1024)));
            } else if (round % 10 == 0) {
                storage.appendEntries(List.of(mockEntry((int) last + 1, 1, 1024)));
            }
            return;
        }
        long term = 1 + round / 7;
        if (round % 7 == g % 7 && last >= storage.getFirstLogIndex() + 1) {
            storage.truncateSuffix(last - 1);
            last--;
        }
        storage.appendEntries(List.of(mockEntry((int) (last + 1), (int) term, 1024), mockEntry((int) (last + 2), (int) term, 1024)));
        if (round % 3 == g % 3) {
            storage.truncatePrefix(storage.getLastLogIndex() - 1);
        }
    }

    private static long segmentBytes(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith("commitlog-")).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        }
    }
}
