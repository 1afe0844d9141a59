package dev.commitlog.bench.probe;

import com.sun.management.OperatingSystemMXBean;
import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.DiskAccessMode;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The process's CPU time (all threads, user and system) per MiB appended by one Periodic writer
 * through a fresh log of 32 MiB segments, so that what a segment costs to prepare shows beside
 * what appending costs; a sync is asked for and durable segments discarded every 64 MiB, to keep
 * the disk footprint small. Uses only the public API, so a baseline build's core jar put first on
 * the class path is measured the same way.
 *
 * <p>Usage: {@code AppendCpuProbe DIR MIB RECORD_BYTES LABEL [ACCESS_MODE]}, ACCESS_MODE being
 * {@code commitlog_disk_access_mode} ({@code standard}, the default, or {@code direct}; a baseline
 * build without the setting takes only the default).
 */
public final class AppendCpuProbe {
    private AppendCpuProbe() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Files.createTempDirectory(Path.of(args[0]), "append-cpu-");
        long bytes = Long.parseLong(args[1]) << 20;
        byte[] record = new byte[Integer.parseInt(args[2])];
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long appended = 0;
        long cpuStart;
        long wallStart;
        CommitLogConfig.Builder config = CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC);
        if (args.length > 4) {
            config.diskAccessMode(DiskAccessMode.valueOf(args[4].toUpperCase(Locale.ROOT)));
        }
        try (CommitLog log = CommitLog.open(config.build())) {
            for (long warm = 0; warm < (64L << 20); warm += record.length) { // warm up: two segments
                log.append(record, 0, record.length);
            }
            cpuStart = os.getProcessCpuTime();
            wallStart = System.nanoTime();
            while (appended < bytes) {
                log.append(record, 0, record.length);
                appended += record.length;
                if (appended % (64L << 20) < record.length) {
                    log.sync();
                    log.discardUpTo(log.durablePosition());
                }
            }
            log.sync();
        }
        long cpu = os.getProcessCpuTime() - cpuStart;
        long wall = System.nanoTime() - wallStart;
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        double mib = appended / (double) (1 << 20);
        System.out.println(String.format(Locale.ROOT, "%s: %.0f MiB of %d-byte records: process CPU %.2f ms per MiB, wall %.2f ms per MiB",
                args[3], mib, record.length, cpu / 1e6 / mib, wall / 1e6 / mib));
    }
}
