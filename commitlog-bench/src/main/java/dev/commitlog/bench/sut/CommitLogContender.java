package dev.commitlog.bench.sut;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.config.SyncMode;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.metrics.CommitLogMetrics;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The commit log in one sync mode (and, for Group, one window; for an ablation column, with one
 * mechanism switched off), configured with the library's defaults otherwise: 32 MiB segments, a
 * 10 s Periodic sync period. Flush counts are the library's own ({@link CommitLog#metrics()}).
 */
public final class CommitLogContender implements Contender {

    public static final String SYSTEM = "commitlog";

    private final SyncMode mode;
    private final Duration groupWindow;   // null unless mode == GROUP
    private final SyncAblation ablation;   // null for the engine as built
    /** Extra latency after every flush ({@link SlowFlushStorage}); 0 for the real device alone. */
    private final long deviceLatencyMicros;
    /** Whether a {@link Discarder} runs beside the appenders. */
    private final boolean discarding;
    /** How flushes are stored: plain, or compressed and/or encrypted sections. */
    private Compression compression = Compression.NONE;
    private Encryption encryption = Encryption.NONE;

    public CommitLogContender(SyncMode mode, Duration groupWindow) {
        this(mode, groupWindow, null, 0, false);
    }

    public CommitLogContender(SyncAblation ablation) {
        this(ablation.mode(), null, ablation, 0, false);
    }

    private CommitLogContender(SyncMode mode, Duration groupWindow, SyncAblation ablation, long deviceLatencyMicros,
                               boolean discarding) {
        this.mode = mode;
        this.groupWindow = mode == SyncMode.GROUP ? groupWindow : null;
        this.ablation = ablation;
        this.deviceLatencyMicros = deviceLatencyMicros;
        this.discarding = discarding;
    }

    /**
     * This column on a device whose every flush takes {@code micros} longer. The engine runs one
     * flush at a time, so the extra latency adds to every flush in turn.
     */
    public CommitLogContender withDeviceLatency(long micros) {
        return new CommitLogContender(mode, groupWindow, ablation, micros, discarding).withSections(compression, encryption);
    }

    /** This column with its records discarded as soon as they are durable ({@link Discarder}). */
    public CommitLogContender discarding() {
        return new CommitLogContender(mode, groupWindow, ablation, deviceLatencyMicros, true).withSections(compression, encryption);
    }

    /**
     * This column storing its flushes as sections (docs/format.md, "Sections"): compressed with
     * {@code compression}, encrypted with {@code encryption} under a key drawn for the run.
     */
    public CommitLogContender withSections(Compression compression, Encryption encryption) {
        CommitLogContender copy = new CommitLogContender(mode, groupWindow, ablation, deviceLatencyMicros, discarding);
        copy.compression = compression;
        copy.encryption = encryption;
        return copy;
    }

    /** Starts this column's {@link Discarder} on {@code log}, or nothing when it keeps its records. */
    public Discarder startDiscarding(CommitLog log) {
        return discarding ? Discarder.start(log) : Discarder.NONE;
    }

    @Override
    public String system() {
        return SYSTEM;
    }

    @Override
    public String mode() {
        if (ablation != null) {
            return ablation.label();
        }
        String name = mode.name().toLowerCase(Locale.ROOT);
        String sections = (compression == Compression.NONE ? "" : "+" + compression.name().toLowerCase(Locale.ROOT))
                + (encryption == Encryption.NONE ? "" : "+aes");
        return (groupWindow == null ? name : name + "-" + groupWindow.toMillis() + "ms") + sections;
    }

    @Override
    public boolean durable() {
        return mode != SyncMode.PERIODIC;   // Periodic acknowledges before the flush
    }

    @Override
    public boolean ablation() {
        return ablation != null;
    }

    @Override
    public String settings() {
        String device = deviceLatencyMicros == 0 ? "" : String.format(Locale.ROOT,
                " [simulated device: every flush waits %d us more after its fdatasync, one flush at a time]",
                deviceLatencyMicros);
        String discard = !discarding ? "" : String.format(Locale.ROOT,
                " [discarding: a thread calls discardUpTo(durablePosition()) every %d ms]", Discarder.INTERVAL_MILLIS);
        String sections = compression == Compression.NONE && encryption == Encryption.NONE ? "" : String.format(Locale.ROOT,
                " [sections: compression %s, encryption %s]", compression.name().toLowerCase(Locale.ROOT),
                encryption == Encryption.NONE ? "none" : "aes-gcm");
        return describe() + device + discard + sections;
    }

    private String describe() {
        if (ablation != null) {
            return ablation.label() + ": commitlog " + mode.name().toLowerCase(Locale.ROOT) + " with " + ablation.describe();
        }
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
        builder.compression(compression).encryption(encryption);
        return ablation == null ? builder.build() : ablation.configure(builder).build();
    }

    /** Opens a fresh log in {@code directory}, with this column's mechanism switched off if it is an ablation. */
    public CommitLog openLog(Path directory) throws IOException {
        CommitLogConfig config = config(directory);
        CommitLogOptions.Builder options = CommitLogOptions.builder();
        // The engine's own layer picks new files' zeros by sync mode; an ablation that changes them gives its own.
        MappedStorageLayer files = ablation == null || ablation.space() == null ? new MappedStorageLayer() : new MappedStorageLayer(ablation.space());
        options.storage(deviceLatencyMicros == 0 ? files
                : new SlowFlushStorage(files, TimeUnit.MICROSECONDS.toNanos(deviceLatencyMicros)));
        if (ablation != null) {
            options.syncTuning(ablation.tuning());
        }
        if (encryption != Encryption.NONE) {
            options.keyProvider(RunKey.INSTANCE);
        }
        return CommitLog.open(config, options.build());
    }

    /** Flush counters of an open log, in the harness's terms. */
    public static FlushCounters flushCounters(CommitLog log) {
        CommitLogMetrics m = log.metrics();
        return new FlushCounters(m.flushes(), m.recordsFlushed());
    }

    @Override
    public int frameBytes(int recordBytes) {
        return RecordDescriptor.alignedFrameLength(recordBytes);
    }

    @Override
    public SystemUnderTest open(Path directory, int recordBytes) throws IOException {
        CommitLog log = openLog(directory);
        return system(log, startDiscarding(log), threadIndex -> record -> log.append(record, 0, record.length));
    }

    /** An open log as a system under test: {@code appenders} makes each writer's appender; closing it closes the log. */
    public static SystemUnderTest system(CommitLog log, IntFunction<Appender> appenders) {
        return system(log, Discarder.NONE, appenders);
    }

    /** As {@link #system(CommitLog, IntFunction)}, and {@code discarder} is closed before the log. */
    private static SystemUnderTest system(CommitLog log, Discarder discarder, IntFunction<Appender> appenders) {
        return new SystemUnderTest() {
            @Override
            public Appender newAppender(int threadIndex) {
                return appenders.apply(threadIndex);
            }

            @Override
            public FlushCounters flushCounters() {
                return CommitLogContender.flushCounters(log);
            }

            @Override
            public void close() {
                try (log) {
                    discarder.close();
                }
            }
        };
    }
}
