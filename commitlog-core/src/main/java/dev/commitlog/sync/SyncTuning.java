package dev.commitlog.sync;

/**
 * Switches for the ablation study in docs/benchmarks.md, read once from system properties when a
 * log opens. They are not configuration: the defaults are the engine, and flipping one only shows
 * what that mechanism adds or costs.
 * <ul>
 *   <li>{@code dev.commitlog.sync.inlineFlush=false}: Batch and Adaptive appenders never flush in
 *       their own thread; the sync thread does every flush (the classic Batch service).</li>
 *   <li>{@code dev.commitlog.sync.inlineFlushRecords=N}: an appender that finds nobody flushing
 *       flushes in its own thread only while the last flush carried at most N records (default:
 *       the number of cores); with more writers than that it hands the flush to the sync thread.
 *       {@code 2147483647} (Integer.MAX_VALUE) makes every such appender flush inline (the engine before
 *       session 17).</li>
 *   <li>{@code dev.commitlog.sync.cascadeWakeups=true}: the flushing thread wakes two covered
 *       waiters and each woken waiter wakes two more, instead of the flusher unparking every one
 *       itself. Off by default: measured here, it let the next flush start before most waiters were
 *       back, so flushes shrank (about 22 records at 256 threads instead of about 230) and
 *       throughput fell by up to a quarter at 128-256 threads. On session 18's faster disk it lost
 *       at 16-32 and 256 threads but gained about 1.2x at 64 and 1.1x at 128 (docs/design.md).</li>
 *   <li>{@code dev.commitlog.sync.yieldWait=false}: waiters park at once (after any spin),
 *       instead of first yielding for up to two flushes (at most {@value #YIELDERS_PER_CORE} per core
 *       at once, only while at least as many others wait as there are cores, and only while
 *       flushes are published no further apart than that budget), so the flusher unparks every
 *       one of them.</li>
 *   <li>{@code dev.commitlog.sync.waitSpins=N}: how many times a waiter re-reads the durable
 *       position, with a spin-wait hint between reads, before it yields or parks (default
 *       {@value #DEFAULT_WAIT_SPINS}: 200, the default before session 17, cost Adaptive 11-23% at
 *       16-256 threads on 2 cores and almost never ended a wait).</li>
 *   <li>{@code dev.commitlog.sync.adaptiveGather=false}: Adaptive claims each flush at once,
 *       instead of first waiting (up to one flush, and only while they come back faster than the
 *       flush would serve them) for the writers the previous flush released.</li>
 *   <li>{@code dev.commitlog.sync.adaptivePipeline=N}: how many flushes Adaptive may run at once
 *       (1 makes it Batch plus the gather; default {@value #DEFAULT_ADAPTIVE_PIPELINE}).</li>
 *   <li>{@code dev.commitlog.sync.adaptiveOverlapGate=false}: Adaptive overlaps flushes whenever
 *       the pipeline has room, instead of only while trials measure overlapping as faster here.</li>
 * </ul>
 * How often the durable mark is rewritten is configuration, not a switch:
 * {@code commitlog_durable_mark_interval}.
 */
public record SyncTuning(int inlineFlushRecords, boolean cascadeWakeups, boolean adaptiveGather, int adaptivePipeline,
                         boolean adaptiveOverlapGate, int maxYielders, int yieldWhenOthersWaiting, int waitSpins) {
    public static final String INLINE_FLUSH = "dev.commitlog.sync.inlineFlush";
    public static final String INLINE_FLUSH_RECORDS = "dev.commitlog.sync.inlineFlushRecords";
    public static final String CASCADE_WAKEUPS = "dev.commitlog.sync.cascadeWakeups";
    public static final String ADAPTIVE_GATHER = "dev.commitlog.sync.adaptiveGather";
    public static final String ADAPTIVE_PIPELINE = "dev.commitlog.sync.adaptivePipeline";
    public static final String ADAPTIVE_OVERLAP_GATE = "dev.commitlog.sync.adaptiveOverlapGate";
    public static final String YIELD_WAIT = "dev.commitlog.sync.yieldWait";
    public static final String WAIT_SPINS = "dev.commitlog.sync.waitSpins";
    /** How many times a waiter re-reads the durable position before it yields or parks, by default. */
    public static final int DEFAULT_WAIT_SPINS = 0;
    /** Waiters that may yield at once, per available processor; the rest park at once. */
    public static final int YIELDERS_PER_CORE = 4;
    /**
     * Flushes Adaptive may run at once by default; whether a second one may start while one runs is
     * decided by trials that measure records made durable per second with and without overlap.
     */
    public static final int DEFAULT_ADAPTIVE_PIPELINE = 4;

    static SyncTuning fromSystemProperties() {
        int inlineFlushRecords = enabled(INLINE_FLUSH, true) ? Integer.getInteger(INLINE_FLUSH_RECORDS, cores()) : 0;
        return new SyncTuning(inlineFlushRecords, enabled(CASCADE_WAKEUPS, false), enabled(ADAPTIVE_GATHER, true),
                Integer.getInteger(ADAPTIVE_PIPELINE, DEFAULT_ADAPTIVE_PIPELINE), enabled(ADAPTIVE_OVERLAP_GATE, true),
                enabled(YIELD_WAIT, true) ? YIELDERS_PER_CORE * cores() : 0, cores(),
                Integer.getInteger(WAIT_SPINS, DEFAULT_WAIT_SPINS));
    }

    private static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    private static boolean enabled(String property, boolean byDefault) {
        return Boolean.parseBoolean(System.getProperty(property, Boolean.toString(byDefault)));
    }
}
