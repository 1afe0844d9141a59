package dev.commitlog.raft.bench;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.raft.CommitLogLogStorage;
import dev.commitlog.raft.RaftCommitLog;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;

/**
 * One open-time measurement, in a JVM of its own (a restart): opens the shared log in the given
 * directory, inits the storage of one group (which loads every group), and prints one line of
 * {@code key=value} fields: {@code log_open_ms} (the commit log's open and recovery),
 * {@code init_ms} (the first init: checkpoint and records after it, or the whole log),
 * {@code open_ms} (both), {@code heap_bytes} (heap in use after a GC with every group loaded, less
 * the heap in use before the open), {@code end} (the log's durable end).
 *
 * <p>The log is closed before the wrapper, so that the probe writes no checkpoint: the directory
 * is as the benchmark left it for the next probe.
 */
public final class OpenTimeProbe {
    private OpenTimeProbe() {
    }

    public static void main(String[] args) throws Exception {
        RaftBenchMain.quietLogging();
        Path dir = Path.of(args[0]);
        String key = args[1];
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long before = heapAfterGc(memory);
        long started = System.nanoTime();
        CommitLog log = CommitLog.open(CommitLogConfig.builder(dir).syncMode(OpenTimeFill.SYNC).build());
        long logOpened = System.nanoTime();
        RaftCommitLog shared = RaftCommitLog.over(log);
        CommitLogLogStorage storage = shared.storage(key, new RaftOptions());
        LogStorageOptions options = new LogStorageOptions();
        options.setConfigurationManager(new ConfigurationManager());
        if (!storage.init(options)) {
            throw new IllegalStateException("init of " + key + " failed");
        }
        long inited = System.nanoTime();
        long end = log.durablePosition();
        log.close(); // before the wrapper: no checkpoint written at its close
        long heap = heapAfterGc(memory) - before;
        System.out.printf("log_open_ms=%.1f init_ms=%.1f open_ms=%.1f heap_bytes=%d end=%d last_index=%d%n", (logOpened - started) / 1e6,
                (inited - logOpened) / 1e6, (inited - started) / 1e6, heap, end, storage.getLastLogIndex());
        shared.close();
    }

    private static long heapAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
