package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.CrashImageSchedule;
import dev.commitlog.io.ImageTally;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.testkit.DamageReports;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One power-loss run over Raft log storages: {@value #GROUPS} groups share one commit log on a
 * {@link SimulatedDisk}, each driven by its own thread through random appendEntries,
 * truncatePrefix, truncateSuffix, reset and drop calls (and rewrites of any group's entries
 * forward, which change no group's log) that follow Raft's rules (appends continue at
 * the last index + 1; truncateSuffix never cuts at or below the commit index the driver models;
 * truncatePrefix never past it + 1). Each driver keeps the history of its group's {@link ModelLog}:
 * state {@code k} is the log after its {@code k}-th call.
 *
 * <p>Crash images are taken while they run, at random moments and right after flushes, under a
 * random {@link SimulatedDisk.Loss}. Each image is reopened (a new log, new storages, {@code init})
 * and every group must recover a state {@code k} with {@code acked <= k <= started}, where
 * {@code acked} counts the calls that had returned before the image and {@code started} those
 * begun by the time it was taken; or a prefix of an append call in flight (appendEntries
 * acknowledges nothing until it returns, and the log keeps records in order). A marker call is
 * one record: all or nothing. Soundness: {@code acked} is read before the image, {@code started}
 * after it.
 */
final class RaftPowerLossScenario {
    static final int GROUPS = 3;
    private static final int SEGMENT_SIZE = 64 * 1024;
    /** The driver truncates its prefix up to the commit point when its log grows past this, so the model stays small. */
    private static final int MAX_MODEL_ENTRIES = 160;
    private static final int MAX_APPEND = 12;
    /** Images at every third flush: Batch and Adaptive flush often. */
    private static final int FLUSH_STRIDE = 3;

    private final SyncMode mode;
    private final long seed;
    private final Path root;
    private final int callsPerGroup;
    private final SimulatedDisk disk = new SimulatedDisk();
    private final List<List<ModelLog>> histories = new ArrayList<>();
    private final AtomicIntegerArray started = new AtomicIntegerArray(GROUPS);
    private final AtomicIntegerArray acked = new AtomicIntegerArray(GROUPS);
    private final AtomicInteger drops = new AtomicInteger();
    private final AtomicInteger rewrites = new AtomicInteger();
    private final List<Image> images = new CopyOnWriteArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CrashImageSchedule schedule;
    private volatile boolean stop;

    static final class Counts extends ImageTally {
        long acknowledgedCallsChecked;
        long entriesVerified;
        /** Group recoveries where a call was in flight at the image: how many kept it, cut it, or kept a prefix of an append. */
        long inFlightKept;
        long inFlightAbsent;
        long appendPrefixes;
        /** Segments the live log created and then discarded (compaction after prefix cuts) while images were taken. */
        long segmentsDiscarded;
        /** Groups the live run dropped (each then started again, empty, under its key). */
        long drops;
        /** Groups whose live entries the live run rewrote forward (and then compacted). */
        long rewrites;

        void add(Counts other) {
            addImages(other);
            acknowledgedCallsChecked += other.acknowledgedCallsChecked;
            entriesVerified += other.entriesVerified;
            inFlightKept += other.inFlightKept;
            inFlightAbsent += other.inFlightAbsent;
            appendPrefixes += other.appendPrefixes;
            segmentsDiscarded += other.segmentsDiscarded;
            drops += other.drops;
            rewrites += other.rewrites;
        }

        @Override
        public String toString() {
            return super.toString() + ", " + acknowledgedCallsChecked + " acknowledged calls checked (summed over images), " + entriesVerified + " entries verified; calls in"
                    + " flight: " + inFlightKept + " kept, " + inFlightAbsent + " absent, " + appendPrefixes + " append prefixes; " + segmentsDiscarded + " segments discarded by the live log; " + drops + " groups dropped, " + rewrites + " rewritten forward";
        }
    }

    private record Image(int index, String origin, SimulatedDisk.Loss loss, long imageSeed, int[] acked, int[] started,
                         SimulatedDisk disk) {
        String describe(SyncMode mode, long seed) {
            return mode + " image #" + index + " (" + origin + ", loss " + loss + ", image seed " + imageSeed + ", run seed " + seed
                    + ", acked calls " + Arrays.toString(acked) + ", started " + Arrays.toString(started) + ")";
        }
    }

    RaftPowerLossScenario(SyncMode mode, long seed, Path root, int targetImages, int callsPerGroup) {
        this.mode = mode;
        this.seed = seed;
        this.root = root;
        this.callsPerGroup = callsPerGroup;
        for (int g = 0; g < GROUPS; g++) {
            List<ModelLog> history = new CopyOnWriteArrayList<>();
            history.add(ModelLog.EMPTY);
            histories.add(history);
        }
        this.schedule = new CrashImageSchedule(disk, seed, targetImages, FLUSH_STRIDE, this::capture, this::allDone, failure)
                .hookFlushes();
    }

    static String groupKey(int group) {
        return "raft-group-" + group;
    }

    /** The data of the entry a group appends as its {@code seq}-th: (group, seq), then filler derived from both. */
    static byte[] data(int group, long seq) {
        byte[] bytes = new byte[12 + (int) Math.floorMod(seq * 13 + group * 7, 300L)];
        ByteBuffer.wrap(bytes).putInt(group).putLong(seq);
        for (int b = 12; b < bytes.length; b++) {
            bytes[b] = (byte) (group * 31 + seq * 17 + b * 7);
        }
        return bytes;
    }

    private CommitLogConfig config(Path directory) {
        return CommitLogConfig.builder(directory).syncMode(mode).segmentSize(SEGMENT_SIZE).build();
    }

    static RaftOptions syncOptions() {
        RaftOptions options = new RaftOptions();
        options.setSync(true);
        return options;
    }

    static LogStorageOptions storageOptions() {
        LogStorageOptions options = new LogStorageOptions();
        options.setConfigurationManager(new ConfigurationManager());
        options.setLogEntryCodecFactory(LogEntryV2CodecFactory.getInstance());
        return options;
    }

    Counts run() throws Exception {
        try (CommitLog live = CommitLog.open(config(Files.createDirectories(root.resolve("live"))), disk,
                (file, offset, position, reason, action) -> failure.compareAndSet(null,
                        new AssertionError("the live log reported damage: " + file + " offset " + offset + ": " + reason)))) {
            RaftCommitLog shared = RaftCommitLog.over(live);
            List<Thread> threads = new ArrayList<>();
            for (int g = 0; g < GROUPS; g++) {
                CommitLogLogStorage storage = shared.storage(groupKey(g), syncOptions());
                assertTrue(storage.init(storageOptions()), "init of " + groupKey(g));
                int group = g;
                threads.add(new Thread(() -> drive(group, shared, storage), "driver-" + g));
            }
            schedule.runWriters(threads, () -> stop = true);
        }
        if (failure.get() != null) {
            throw new AssertionError("a thread failed in " + mode + " (seed " + seed + "): " + failure.get(), failure.get());
        }
        schedule.take("after close"); // every call returned: exactly the last state

        Counts counts = new Counts();
        counts.fromFlushEvents = schedule.flushImages();
        counts.segmentsDiscarded = disk.createCalls() - disk.fileNames().size();
        counts.drops = drops.get();
        counts.rewrites = rewrites.get();
        Path reopen = Files.createDirectories(root.resolve("reopen"));
        for (Image image : images) {
            verify(image, reopen, counts);
        }
        return counts;
    }

    /**
     * One group's calls, each recorded in the history (as started) before it is made and counted as
     * acked after it returns. A drop shuts the storage down, drops the group and inits a new
     * storage of the key, which starts empty; images are also taken right before and right after
     * each drop. A rewrite (of any group's entries, forward) is no call of the group's log.
     */
    private void drive(int group, RaftCommitLog shared, CommitLogLogStorage first) {
        CommitLogLogStorage[] current = {first};
        Random random = new Random(seed * 31 + group);
        List<ModelLog> history = histories.get(group);
        ModelLog model = ModelLog.EMPTY;
        long commit = 0;
        long term = 1;
        long nextSeq = 0;
        try {
            for (int call = 0; call < callsPerGroup && !stop; call++) {
                schedule.keepPace(call, callsPerGroup);
                commit = commit + (long) random.nextInt((int) (model.last() - commit) + 1);
                int choice = random.nextInt(100);
                ModelLog next;
                Runnable op;
                if (model.size() > MAX_MODEL_ENTRIES || (choice < 10 && commit + 1 >= model.first())) {
                    commit = Math.max(commit, model.first() - 1);
                    long firstKept = model.first() + random.nextInt((int) (commit + 1 - model.first()) + 1);
                    next = model.truncatePrefix(firstKept);
                    op = () -> assertTrue(current[0].truncatePrefix(firstKept), "truncatePrefix");
                } else if (choice < 22 && model.last() - 1 >= Math.max(commit, model.first())) {
                    long low = Math.max(commit, model.first());
                    long lastKept = low + random.nextInt((int) (model.last() - 1 - low) + 1);
                    next = model.truncateSuffix(lastKept);
                    term++; // a new leader's entries replace the cut ones
                    op = () -> assertTrue(current[0].truncateSuffix(lastKept), "truncateSuffix");
                } else if (choice < 27) {
                    // Within the log: keeps that entry; past it: a snapshot install's reset (a no-op of term 0 stays).
                    long nextIndex = model.size() > 0 && random.nextBoolean()
                            ? Math.max(commit, model.first()) + random.nextInt((int) (model.last() - Math.max(commit, model.first())) + 1)
                            : model.last() + 1 + random.nextInt(5);
                    next = model.reset(nextIndex);
                    commit = nextIndex;
                    term++;
                    op = () -> assertTrue(current[0].reset(nextIndex), "reset");
                } else if (choice < 31) {
                    next = ModelLog.EMPTY;
                    commit = 0;
                    op = () -> {
                        current[0].shutdown();
                        schedule.takeIfCapturing("before the drop of " + groupKey(group));
                        shared.drop(groupKey(group));
                        CommitLogLogStorage again = shared.storage(groupKey(group), syncOptions());
                        assertTrue(again.init(storageOptions()), "init after drop");
                        current[0] = again;
                    };
                    drops.incrementAndGet();
                } else if (choice < 36) {
                    rewriteForward(shared, random.nextInt(GROUPS));
                    continue; // no call of this group's log: its state stays
                } else {
                    int n = 1 + random.nextInt(MAX_APPEND);
                    long[] terms = new long[n];
                    long[] seqs = new long[n];
                    List<LogEntry> entries = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        terms[i] = term;
                        seqs[i] = nextSeq++;
                        LogEntry entry = new LogEntry(EntryType.ENTRY_TYPE_DATA);
                        entry.setId(new LogId(model.last() + 1 + i, term));
                        entry.setData(ByteBuffer.wrap(data(group, seqs[i])));
                        entries.add(entry);
                    }
                    next = model.append(terms, seqs);
                    op = () -> assertEquals(n, current[0].appendEntries(entries), "entries appended");
                }
                history.add(next); // state started.get() + 1
                started.incrementAndGet(group);
                op.run();
                acked.incrementAndGet(group);
                if (next == ModelLog.EMPTY) {
                    schedule.takeIfCapturing("after the drop of " + groupKey(group));
                }
                model = next;
                if (random.nextInt(4) == 0) {
                    LockSupport.parkNanos(random.nextInt(200_000));
                }
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
    }

    /**
     * Rewrites group {@code target}'s live entries forward (whichever driver runs that group, its
     * calls wait for the rewrite), then compacts, which discards the old records once no group
     * needs them; an image is taken right after. The group's state must be the same before,
     * during and after.
     */
    private void rewriteForward(RaftCommitLog shared, int target) {
        GroupState state = shared.groups().find(groupKey(target));
        if (state != null && shared.rewrite().rewrite(state, Long.MAX_VALUE) >= 0) {
            rewrites.incrementAndGet();
            shared.compact();
            schedule.takeIfCapturing("after a rewrite of " + groupKey(target));
        }
    }

    private boolean allDone() {
        return CrashImageSchedule.allReached(acked, callsPerGroup, failure);
    }

    /** Acknowledged calls first, then the image, then the calls started. */
    private void capture(String origin, int index) {
        int[] ackedNow = CrashImageSchedule.counts(acked);
        CrashImageSchedule.SeededImage image = CrashImageSchedule.crashImage(disk, seed, index);
        int[] startedNow = CrashImageSchedule.counts(started);
        images.add(new Image(index, origin, image.loss(), image.seed(), ackedNow, startedNow, image.disk()));
    }

    private void verify(Image image, Path reopen, Counts counts) throws IOException {
        String what = image.describe(mode, seed);
        ModelLog[] recovered = new ModelLog[GROUPS];
        DamageReports reports = new DamageReports();
        try (CommitLog log = CommitLog.open(config(reopen), image.disk(), reports)) {
            assertTrue(reports.onlyTornTails(), () -> what + ": damage other than a torn tail: " + reports);
            RaftCommitLog shared = RaftCommitLog.over(log);
            for (int g = 0; g < GROUPS; g++) {
                recovered[g] = read(shared, g, what);
                check(image, g, recovered[g], what, counts);
            }
            // The storage takes appends after recovery, and a second reopen sees them after what was recovered.
            appendAfterRecovery(shared, recovered[0], what);
        }
        try (CommitLog log = CommitLog.open(config(reopen), image.disk(), (file, offset, position, reason, action) ->
                fail(what + ": second reopen reported " + reason + " at position " + position))) {
            ModelLog again = read(RaftCommitLog.over(log), 0, what);
            ModelLog expected = recovered[0].append(new long[] {Long.MAX_VALUE}, new long[] {Long.MAX_VALUE});
            assertTrue(again.sameAs(expected), () -> what + ": after an append past the recovered log and a reopen, group 0 holds "
                    + again + ", expected " + expected);
        }
        counts.counted(image.loss());
    }

    /** Group 0 appends one entry (term and data sequence {@code Long.MAX_VALUE}) after its recovered log. */
    private static void appendAfterRecovery(RaftCommitLog shared, ModelLog recovered, String what) {
        CommitLogLogStorage storage = shared.storage(groupKey(0), syncOptions());
        assertTrue(storage.init(storageOptions()), what);
        LogEntry entry = new LogEntry(EntryType.ENTRY_TYPE_DATA);
        entry.setId(new LogId(recovered.last() + 1, Long.MAX_VALUE));
        entry.setData(ByteBuffer.wrap(data(0, Long.MAX_VALUE)));
        assertTrue(storage.appendEntry(entry), () -> what + ": append after recovery");
    }

    /** A group's log as a fresh storage over the reopened log sees it; every entry's data must be the one its sequence names. */
    private static ModelLog read(RaftCommitLog shared, int group, String what) {
        CommitLogLogStorage storage = shared.storage(groupKey(group), syncOptions());
        assertTrue(storage.init(storageOptions()), () -> what + ": init of group " + group);
        long first = storage.getFirstLogIndex();
        long last = storage.getLastLogIndex();
        assertTrue(last >= first - 1, () -> what + ": group " + group + " recovered first " + first + " and last " + last);
        int n = (int) (last - first + 1);
        long[] terms = new long[n];
        long[] seqs = new long[n];
        for (int i = 0; i < n; i++) {
            long index = first + i;
            LogEntry entry = storage.getEntry(index);
            assertNotNull(entry, () -> what + ": group " + group + " has no entry at " + index + " within [" + first + ", " + last + "]");
            assertEquals(index, entry.getId().getIndex(), () -> what + ": group " + group + " entry index");
            terms[i] = entry.getId().getTerm();
            if (entry.getType() == EntryType.ENTRY_TYPE_NO_OP) {
                seqs[i] = ModelLog.NO_OP;
                continue;
            }
            assertEquals(EntryType.ENTRY_TYPE_DATA, entry.getType(), () -> what + ": group " + group + " entry " + index + " type");
            ByteBuffer data = entry.getData();
            byte[] bytes = new byte[data.remaining()];
            data.duplicate().get(bytes);
            assertTrue(bytes.length >= 12, () -> what + ": group " + group + " entry " + index + " is too short to be ours");
            ByteBuffer header = ByteBuffer.wrap(bytes);
            int owner = header.getInt();
            long seq = header.getLong();
            assertEquals(group, owner, () -> what + ": group " + group + " holds an entry of group " + owner + " at " + index);
            assertTrue(Arrays.equals(data(group, seq), bytes), () -> what + ": group " + group + " entry " + index + " (seq " + seq
                    + ") has other data than was appended");
            seqs[i] = seq;
        }
        storage.shutdown();
        return new ModelLog(first, last, terms, seqs);
    }

    /** The recovered log is a state between the acknowledged and the started call, or a prefix of an append in flight. */
    private void check(Image image, int group, ModelLog recovered, String what, Counts counts) {
        List<ModelLog> history = histories.get(group);
        int ackedCalls = image.acked()[group];
        int startedCalls = image.started()[group];
        counts.acknowledgedCallsChecked += ackedCalls;
        counts.entriesVerified += recovered.size();
        for (int k = ackedCalls; k <= startedCalls; k++) {
            if (recovered.sameAs(history.get(k))) {
                if (startedCalls > ackedCalls) {
                    if (k == ackedCalls) {
                        counts.inFlightAbsent++;
                    } else {
                        counts.inFlightKept++;
                    }
                }
                return;
            }
        }
        for (int k = ackedCalls; k < startedCalls; k++) {
            ModelLog before = history.get(k);
            ModelLog after = history.get(k + 1);
            boolean isAppend = after.first() == before.first() && after.last() > before.last()
                    && before.isAppendPrefix(before, after);
            if (isAppend && recovered.isAppendPrefix(before, after)) {
                counts.appendPrefixes++;
                return;
            }
        }
        fail(what + ": group " + group + " recovered " + recovered + ", which is no state between the acknowledged "
                + history.get(ackedCalls) + " (after call " + ackedCalls + ") and " + history.get(startedCalls) + " (after call "
                + startedCalls + ")" + (ackedCalls > 0 ? "; the state before the last acknowledged call was "
                + history.get(ackedCalls - 1) : ""));
    }
}
