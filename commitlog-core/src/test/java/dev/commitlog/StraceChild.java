package dev.commitlog;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.DiskAccessMode;
import dev.commitlog.config.SyncMode;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The process traced by {@link StraceFlushTest}: appends from several threads and, around each
 * append, writes one line with one write(2) call: "B thread seq" before it, "A thread seq" after it
 * returned. The trace then shows, in one clock, when each append began and was acknowledged, and
 * every msync/fdatasync in between. Arguments: directory, sync mode, threads, appends per thread,
 * the marks file, and optionally {@code commitlog_disk_access_mode} (a {@code DiskAccessMode} name)
 * and {@code commitlog_durable_mark_interval} in milliseconds.
 */
public final class StraceChild {
    private StraceChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        SyncMode mode = SyncMode.valueOf(args[1]);
        int threads = Integer.parseInt(args[2]);
        int perThread = Integer.parseInt(args[3]);
        DiskAccessMode access = args.length > 5 ? DiskAccessMode.valueOf(args[5]) : DiskAccessMode.STANDARD;
        CommitLogConfig.Builder config = CommitLogConfig.builder(dir).syncMode(mode).segmentSize(1 << 20).diskAccessMode(access);
        if (args.length > 6) {
            config.durableMarkInterval(Duration.ofMillis(Long.parseLong(args[6])));
        }
        if (mode == SyncMode.PERIODIC) {
            config.syncPeriod(Duration.ofSeconds(30));
        }
        try (CommitLog log = CommitLog.open(config.build());
             FileOutputStream marks = new FileOutputStream(args[4])) {
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                workers.add(new Thread(() -> {
                    byte[] record = new byte[100];
                    try {
                        for (int i = 0; i < perThread; i++) {
                            marks.write(("B " + thread + " " + i + "\n").getBytes(StandardCharsets.US_ASCII));
                            log.append(record, 0, record.length);
                            marks.write(("A " + thread + " " + i + "\n").getBytes(StandardCharsets.US_ASCII));
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            workers.forEach(Thread::start);
            for (Thread worker : workers) {
                worker.join();
            }
        }
    }
}
