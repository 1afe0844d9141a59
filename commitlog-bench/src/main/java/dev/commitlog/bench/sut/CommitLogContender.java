package dev.commitlog.bench.sut;

import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.metrics.CommitLogMetrics;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * The commit log in one sync mode (and, for Group, one window), configured with the library's
 * defaults otherwise: 32 MiB segments, a 10 s Periodic sync period. Flush counts are the
 * library's own ({@link CommitLog#metrics()}).
 */
public final class CommitLogContender implements Contender {

    public static final String SYSTEM = "commitlog";

    private final SyncMode mode;
    private final Duration groupWindow;   // null unless mode == GROUP

    public CommitLogContender(SyncMode mode, Duration groupWindow) {
        this.mode = mode;
        this.groupWindow = mode == SyncMode.GROUP ? groupWindow : null;
    }

    @Override
    public String system() {
        return SYSTEM;
    }

    @Override
    public String mode() {
        String name = mode.name().toLowerCase(Locale.ROOT);
        return groupWindow == null ? name : name + "-" + groupWindow.toMillis() + "ms";
    }

    @Override
    public boolean durable() {
        return mode != SyncMode.PERIODIC;   // Periodic acknowledges before the flush
    }

    @Override
    public String settings() {
        CommitLogConfig defaults = CommitLogConfig.builder(Path.of(".")).build();
        return String.format(Locale.ROOT,
                "commitlog: library defaults (segment %d MiB, periodic period %d ms, lag block %d ms), "
                        + "append(byte[]) per record; group window per column",
                defaults.segmentSize() >> 20, defaults.syncPeriod().toMillis(),
                defaults.periodicLagBlock().toMillis());
    }

    /** The configuration a cell runs with; everything not named here is the library default. */
    CommitLogConfig config(Path directory) {
        CommitLogConfig.Builder builder = CommitLogConfig.builder(directory).syncMode(mode);
        if (groupWindow != null) {
            builder.groupWindow(groupWindow);
        }
        return builder.build();
    }

    @Override
    public SystemUnderTest open(Path directory, int recordBytes) throws IOException {
        CommitLog log = CommitLog.open(config(directory));
        return new SystemUnderTest() {
            @Override
            public Appender newAppender(int threadIndex) {
                return record -> log.append(record, 0, record.length);
            }

            @Override
            public FlushCounters flushCounters() {
                CommitLogMetrics m = log.metrics();
                return new FlushCounters(m.flushes(), m.recordsFlushed());
            }

            @Override
            public void close() {
                log.close();
            }
        };
    }
}
