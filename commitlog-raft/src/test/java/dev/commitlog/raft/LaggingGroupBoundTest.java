package dev.commitlog.raft;

import static dev.commitlog.raft.CommitLogLogStorageTest.mockEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.CommitLog;
import dev.commitlog.CorruptionListener;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SimulatedDisk;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 100 groups on one log: one lags (it appends rarely and never truncates on its own), the others
 * append, snapshot (truncatePrefix) and cut conflicting tails (truncateSuffix). With
 * {@link RaftLogOptions#maxRetainedBytes()} set, the bytes the log keeps stay within the bound
 * while the workload appends ten times as much: by rewriting the lagging group forward, or by
 * telling the node, which snapshots it. Without a bound the lagging group keeps everything.
 */
class LaggingGroupBoundTest {
    private static final int SEGMENT = 64 * 1024;
    private static final long BOUND = 32L * SEGMENT;
    private static final int GROUPS = 100;
    private static final int DATA = 1024;
    private static final String LAGGING = key(0);
    private static final int DRIVERS = 10;

    @TempDir
    Path directory;
    private static final CorruptionListener NO_DAMAGE = (file, offset, position, reason, action) ->
            fail("damage reported: " + file + " offset " + offset + ": " + reason);

    /** The log's files: its flushes cost nothing, so the test spends its time on the groups, not the device. */
    private final SimulatedDisk disk = new SimulatedDisk();

    private CommitLogConfig config() {
        return CommitLogConfig.builder(directory).syncMode(SyncMode.BATCH).segmentSize(SEGMENT).build();
    }

    private static LogStorageOptions storageOptions() {
        LogStorageOptions opts = new LogStorageOptions();
        opts.setConfigurationManager(new ConfigurationManager());
        opts.setLogEntryCodecFactory(LogEntryV2CodecFactory.getInstance());
        return opts;
    }

    /** Bytes of the log's segment files now. */
    private long segmentBytes() throws IOException {
        long bytes = 0;
        for (Path file : disk.list(directory)) {
            if (file.getFileName().toString().startsWith(SegmentDescriptor.FILE_PREFIX)) {
                try {
                    bytes += disk.size(file);
                } catch (NoSuchFileException e) {
                    // renamed or deleted since the listing (a segment recycled or discarded): it holds no bytes now
                }
            }
        }
        return bytes;
    }

    private static String key(int group) {
        return "group-" + group;
    }

    /** What one run saw: the most bytes retained after any round, and what the log appended in all. */
    private record Run(long maxSpan, long maxFiles, long appended, long rewrites, long listenerCalls, long laggingTruncations) {
    }

    /**
     * Rounds until the log appended ten times the bound. In each round, {@value #DRIVERS} threads
     * drive ten groups each (a process's Raft groups append concurrently and share flushes): every
     * group but the lagging one appends two entries and snapshots every third round (staggered),
     * keeping its last two entries; one in seven rounds it first cuts its last entry and appends it
     * again in a new term. The lagging group appends one entry every 10 rounds. After every round:
     * the retained span (durable end minus the oldest position any group needs) and the bytes of
     * the segment files.
     */
    private Run run(RaftLogOptions options, boolean listenerSnapshots) throws Exception {
        long[] laggingTruncations = new long[1];
        CommitLogLogStorage[] storages = new CommitLogLogStorage[GROUPS];
        RaftLogOptions.Builder builder = RaftLogOptions.builder().maxRetainedBytes(options.maxRetainedBytes())
                .maxRewriteBytes(options.maxRewriteBytes());
        if (listenerSnapshots) {
            // The node's answer: a snapshot of the group at its last entry, after which JRaft truncates the log's prefix.
            builder.laggingGroupListener((key, position, pinned) -> {
                CommitLogLogStorage storage = storages[Integer.parseInt(key.substring("group-".length()))];
                assertTrue(storage.truncatePrefix(storage.getLastLogIndex() + 1));
                synchronized (laggingTruncations) {
                    laggingTruncations[0]++;
                }
            });
        }
        RaftLogOptions bounded = options.maxRetainedBytes() == RaftLogOptions.UNBOUNDED ? RaftLogOptions.defaults() : builder.build();
        try (CommitLog log = CommitLog.open(config(), disk, NO_DAMAGE); RaftCommitLog shared = RaftCommitLog.over(log, bounded)) {
            for (int g = 0; g < GROUPS; g++) {
                storages[g] = shared.storage(key(g), new RaftOptions());
                assertTrue(storages[g].init(storageOptions()));
            }
            long start = log.durablePosition();
            long began = System.nanoTime();
            long maxSpan = 0;
            long maxFiles = 0;
            ExecutorService drivers = Executors.newFixedThreadPool(DRIVERS);
            try {
                for (int round = 0; log.durablePosition() - start < 10 * BOUND; round++) {
                    List<Future<?>> done = new ArrayList<>();
                    for (int d = 0; d < DRIVERS; d++) {
                        int driver = d;
                        int thisRound = round;
                        done.add(drivers.submit(() -> {
                            for (int g = driver; g < GROUPS; g += DRIVERS) {
                                step(storages[g], g, thisRound);
                            }
                            return null;
                        }));
                    }
                    for (Future<?> each : done) {
                        each.get();
                    }
                    maxSpan = Math.max(maxSpan, log.durablePosition() - shared.compaction().lowestNeeded());
                    maxFiles = Math.max(maxFiles, segmentBytes());
                }
            } finally {
                drivers.shutdownNow();
            }
            long appended = log.durablePosition() - start;
            CommitLogLogStorage lagging = storages[0]; // every entry it holds reads back, at whichever position
            for (long i = lagging.getFirstLogIndex(); i <= lagging.getLastLogIndex(); i++) {
                assertEquals(i, lagging.getEntry(i).getId().getIndex());
            }
            Run run = new Run(maxSpan, maxFiles, appended, shared.rewrite().rewrites(), shared.bound().listenerCalls(),
                    laggingTruncations[0]);
            System.out.println("lagging-group bound " + BOUND + " B: " + run + ", " + log.metrics().flushes() + " flushes, "
                    + (System.nanoTime() - began) / 1_000_000 + " ms");
            return run;
        }
    }

    /** Group {@code g}'s calls in round {@code round} (see {@link #run}). */
    private static void step(CommitLogLogStorage storage, int g, int round) {
        long last = storage.getLastLogIndex();
        if (g == 0) {
            if (round % 10 == 0) {
                assertEquals(1, storage.appendEntries(List.of(mockEntry((int) last + 1, 1, DATA))));
            }
            return;
        }
        long term = 1 + round / 7;
        if (round % 7 == g % 7 && last >= storage.getFirstLogIndex() + 1) {
            assertTrue(storage.truncateSuffix(last - 1)); // a conflicting tail cut, then written again
            last--;
        }
        List<LogEntry> batch = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            batch.add(mockEntry((int) (last + i), (int) term, DATA + (int) ((last + i) % 16)));
        }
        assertEquals(2, storage.appendEntries(batch));
        if (round % 3 == g % 3) {
            assertTrue(storage.truncatePrefix(storage.getLastLogIndex() - 1)); // a snapshot, keeping two entries
        }
    }

    @Test
    void rewritingTheLaggingGroupForwardKeepsTheBound() throws Exception {
        long firstIndex;
        Run run = run(RaftLogOptions.builder().maxRetainedBytes(BOUND).build(), false);
        assertTrue(run.appended() >= 10 * BOUND);
        assertTrue(run.rewrites() > 0, "the lagging group was rewritten: " + run);
        assertEquals(0, run.laggingTruncations());
        assertTrue(run.maxSpan() <= BOUND, "retained span " + run.maxSpan() + " > bound " + BOUND + ": " + run);
        assertTrue(run.maxFiles() <= BOUND, "segment files " + run.maxFiles() + " B > bound " + BOUND + ": " + run);
        // and after a restart the lagging group has every entry it appended, from index 1
        try (CommitLog log = CommitLog.open(config(), disk, NO_DAMAGE); RaftCommitLog shared = RaftCommitLog.over(log)) {
            CommitLogLogStorage lagging = shared.storage(LAGGING, new RaftOptions());
            assertTrue(lagging.init(storageOptions()));
            firstIndex = lagging.getFirstLogIndex();
            assertEquals(1, firstIndex);
            for (long i = 1; i <= lagging.getLastLogIndex(); i++) {
                assertEquals(i, lagging.getEntry(i).getId().getIndex());
            }
            assertTrue(lagging.getLastLogIndex() > 5);
        }
    }

    @Test
    void theListenerSnapshottingTheLaggingGroupKeepsTheBound() throws Exception {
        Run run = run(RaftLogOptions.builder().maxRetainedBytes(BOUND).maxRewriteBytes(0).build(), true);
        assertTrue(run.appended() >= 10 * BOUND);
        assertEquals(0, run.rewrites());
        assertTrue(run.laggingTruncations() > 0 && run.listenerCalls() >= run.laggingTruncations(), run.toString());
        assertTrue(run.maxSpan() <= BOUND, "retained span " + run.maxSpan() + " > bound " + BOUND + ": " + run);
        assertTrue(run.maxFiles() <= BOUND, "segment files " + run.maxFiles() + " B > bound " + BOUND + ": " + run);
    }

    @Test
    void withoutABoundTheLaggingGroupKeepsEverySegment() throws Exception {
        Run run = run(RaftLogOptions.defaults(), false);
        assertTrue(run.maxSpan() > run.appended() - SEGMENT, "the lagging group's first entry holds the whole log: " + run);
        assertTrue(run.maxFiles() > 9 * BOUND, run.toString());
    }

    @Test
    void badBoundsAreRefusedNamingTheValue() throws IOException {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> RaftLogOptions.builder().maxRetainedBytes(0));
        assertTrue(zero.getMessage().contains("maxRetainedBytes must be positive") && zero.getMessage().contains("got 0"), zero.getMessage());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> RaftLogOptions.builder().maxRewriteBytes(-1));
        assertTrue(negative.getMessage().contains("got -1"), negative.getMessage());
        IllegalArgumentException above = assertThrows(IllegalArgumentException.class,
                () -> RaftLogOptions.builder().maxRetainedBytes(BOUND).maxRewriteBytes(BOUND + 1).build());
        assertTrue(above.getMessage().contains("exceeds maxRetainedBytes " + BOUND), above.getMessage());
        RaftLogOptions small = RaftLogOptions.builder().maxRetainedBytes(7L * SEGMENT).build();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () ->
                RaftCommitLog.open(CommitLogConfig.builder(directory).segmentSize(SEGMENT).build(), small));
        assertTrue(refused.getMessage().contains("maxRetainedBytes " + 7L * SEGMENT) && refused.getMessage().contains("at least " + 8L * SEGMENT),
                refused.getMessage());
        try (RaftCommitLog opened = RaftCommitLog.open(CommitLogConfig.builder(directory).segmentSize(SEGMENT).build(),
                RaftLogOptions.builder().maxRetainedBytes(8L * SEGMENT).build())) {
            assertEquals(8L * SEGMENT, opened.options().maxRetainedBytes());
            assertEquals(SEGMENT / 2, opened.options().maxRewriteBytes(), "a sixteenth of the bound by default");
        }
    }
}
