package dev.commitlog;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.testkit.KillableChild;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The writer that {@link ProcessKillTest} kills with SIGKILL: opens the log in {@code args[0]} in
 * sync mode {@code args[1]}, and from {@code args[2]} threads appends records (generation
 * {@code args[3]}, thread, seq) for ever, printing one line per acknowledged record after append
 * returned ({@link KillableChild}: one write(2) a line): {@code generation thread seq position}.
 * A line in the pipe survives the kill; a record is acknowledged exactly when its line was
 * written. With {@code args[4]} = {@code async}, appends go through appendAsync and the line is
 * written by the completion callback.
 *
 * <p>A discarder thread keeps the log to the last {@link #KEPT_SEGMENTS} segments' worth of
 * records, so segment files are deleted (or, with {@code commitlog_recycle_segments}, reused)
 * under the kill: before
 * each {@code discardUpTo(P)} it prints {@code discard P}, so the parent requires only the
 * acknowledged records at or past the highest P it read (a kill during the call may have deleted
 * files below P, and nothing at or past it).
 */
public final class KillChild {
    /** A safety net: the child ends itself if nobody kills it. */
    private static final long MAX_LIFETIME_MILLIS = 60_000;

    private KillChild() {
    }

    /** Record (generation, thread, seq): the three ints, then filler derived from them. */
    static byte[] record(int generation, int thread, int seq) {
        byte[] bytes = new byte[12 + Math.floorMod(generation * 5 + thread * 7 + seq * 13, 200)];
        ByteBuffer.wrap(bytes).putInt(generation).putInt(thread).putInt(seq);
        for (int b = 12; b < bytes.length; b++) {
            bytes[b] = (byte) (generation * 3 + thread * 31 + seq * 17 + b * 7);
        }
        return bytes;
    }

    static CommitLogConfig config(Path directory, SyncMode mode) {
        CommitLogConfig.Builder builder = CommitLogConfig.builder(directory).syncMode(mode).segmentSize(TestLogs.SMALL_SEGMENT);
        return mode == SyncMode.GROUP ? builder.groupWindow(Duration.ofMillis(1)).build() : builder.build();
    }

    /** With {@code sectioned}: LZ4 and AES-GCM under {@link SectionedLogs#keys} key 1 (format version 3). */
    static CommitLogConfig config(Path directory, SyncMode mode, boolean sectioned) {
        CommitLogConfig config = config(directory, mode);
        return sectioned ? SECTIONS.apply(config.toBuilder()).build() : config;
    }

    static CommitLogOptions.Builder options(boolean sectioned) {
        return sectioned ? SECTIONS.options() : CommitLogOptions.builder().noJmx();
    }

    private static final SectionedLogs.Sections SECTIONS = new SectionedLogs.Sections(dev.commitlog.config.Compression.LZ4,
            dev.commitlog.config.Encryption.AES_GCM);
    /** {@code args[5]}: the log compresses and encrypts. */
    static final String SECTIONED = "sectioned";

    static final String SYNC = "sync";
    static final String DISCARD = "discard";
    /** How much the discarder keeps: records older than this many segments' worth are discarded. */
    static final int KEPT_SEGMENTS = 2;
    static final String ASYNC = "async";
    private static final int ASYNC_IN_FLIGHT = 64;

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args[0]);
        SyncMode mode = SyncMode.valueOf(args[1]);
        int threads = Integer.parseInt(args[2]);
        int generation = Integer.parseInt(args[3]);
        KillableChild out = new KillableChild();
        boolean sectioned = args.length > 5 && SECTIONED.equals(args[5]);
        CommitLog log = CommitLog.open(config(directory, mode, sectioned), options(sectioned).build());
        out.ready();
        boolean async = ASYNC.equals(args[4]);
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread appender = new Thread(() -> {
                try {
                    if (async) {
                        appendAsync(log, out, generation, thread);
                    }
                    for (int seq = 0; ; seq++) {
                        byte[] bytes = record(generation, thread, seq);
                        long position = log.append(bytes, 0, bytes.length);
                        out.println(generation + " " + thread + " " + seq + " " + position);
                    }
                } catch (Throwable e) {
                    e.printStackTrace();
                    Runtime.getRuntime().halt(3);
                }
            }, "appender-" + t);
            appender.setDaemon(true);
            appender.start();
        }
        Thread discarder = new Thread(() -> discardBehind(log, out), "discarder");
        discarder.setDaemon(true);
        discarder.start();
        KillableChild.awaitKill(MAX_LIFETIME_MILLIS);
    }

    /** Every 10 ms, discards what lies more than {@link #KEPT_SEGMENTS} segments behind the durable position. */
    private static void discardBehind(CommitLog log, KillableChild out) {
        long discarded = 0;
        try {
            for (;;) {
                Thread.sleep(10);
                long position = log.durablePosition() - (long) KEPT_SEGMENTS * TestLogs.SMALL_SEGMENT;
                if (position > discarded + TestLogs.SMALL_SEGMENT) {
                    out.println(DISCARD + " " + position);
                    log.discardUpTo(position);
                    discarded = position;
                }
            }
        } catch (Throwable e) {
            e.printStackTrace();
            Runtime.getRuntime().halt(5);
        }
    }

    /**
     * Appends with appendAsync, at most {@link #ASYNC_IN_FLIGHT} in flight, and prints each record
     * when its completion arrives: one thread's completions come in its append order, so the n-th
     * completion is its n-th record. Never returns.
     */
    private static void appendAsync(CommitLog log, KillableChild out, int generation, int thread) {
        AtomicInteger completed = new AtomicInteger();
        AppendCallback printer = AppendCallback.of(position -> {
            try {
                out.println(generation + " " + thread + " " + completed.get() + " " + position);
            } catch (IOException e) {
                Runtime.getRuntime().halt(4);
            }
            completed.incrementAndGet();
        }, (position, cause) -> {
            cause.printStackTrace();
            Runtime.getRuntime().halt(3);
        });
        for (int seq = 0; ; seq++) {
            while (seq - completed.get() >= ASYNC_IN_FLIGHT) {
                LockSupport.parkNanos(20_000);
            }
            byte[] bytes = record(generation, thread, seq);
            log.appendAsync(bytes, 0, bytes.length, printer);
        }
    }
}
