package dev.commitlog.sync;

/**
 * Switches for the ablation study in docs/benchmarks.md, read once from system properties when a
 * log opens. They are not configuration: the defaults are the engine, and switching one off only
 * shows what that mechanism adds.
 * <ul>
 *   <li>{@code dev.commitlog.sync.inlineFlush=false}: Batch and Adaptive appenders never flush in
 *       their own thread; the sync thread does every flush (the classic Batch service).</li>
 *   <li>{@code dev.commitlog.sync.cascadeWakeups=false}: the flushing thread unparks every covered
 *       waiter itself instead of waking two and letting each woken waiter wake two more.</li>
 *   <li>{@code dev.commitlog.sync.adaptiveGather=false}: Adaptive flushes without waiting for the
 *       appenders the previous flush released (it is then Batch with inline flushes).</li>
 * </ul>
 */
record SyncTuning(boolean inlineFlush, boolean cascadeWakeups, boolean adaptiveGather) {

    static SyncTuning fromSystemProperties() {
        return new SyncTuning(enabled("dev.commitlog.sync.inlineFlush"), enabled("dev.commitlog.sync.cascadeWakeups"),
                enabled("dev.commitlog.sync.adaptiveGather"));
    }

    private static boolean enabled(String property) {
        return !"false".equalsIgnoreCase(System.getProperty(property, "true"));
    }
}
