package dev.commitlog.bench.sweep;

import dev.commitlog.bench.device.DeviceWrites;
import dev.commitlog.bench.sut.FlushCounters;
import java.util.function.Supplier;

/**
 * A cell's measured window: how long it was open, the system's flush counters at its two ends, the
 * bytes the device holding the cell took while it was open ({@link DeviceWrites#UNKNOWN} when
 * not measured), and the process's CPU time while it was open ({@link ProcessCpu#UNKNOWN} when not
 * measured). Closed-loop and asynchronous cells time it the same way, so that their figures
 * compare.
 */
record MeasuredWindow(FlushCounters before, FlushCounters after, double seconds, long deviceBytes, long cpuNanos) {

    /**
     * Lets the running cell warm up for {@code timing.warmup()}, then moves {@code phase} to
     * MEASURE for {@code timing.measure()} and to STOP. The counters are read before the clock
     * starts and after it stops, so reading them takes no time from the window; the CPU clock is
     * read next to the wall clock, so both cover the same span.
     */
    static MeasuredWindow run(CellTiming timing, CellPhase phase, Supplier<FlushCounters> counters,
                              DeviceWrites device) throws InterruptedException {
        CellThreads.sleep(timing.warmup());
        FlushCounters before = counters.get();
        long deviceBefore = device.bytesWritten();
        long cpuBefore = ProcessCpu.nanos();
        long start = System.nanoTime();
        phase.measure();
        CellThreads.sleep(timing.measure());
        phase.stop();
        long end = System.nanoTime();
        long cpuNanos = ProcessCpu.between(cpuBefore, ProcessCpu.nanos());
        long deviceBytes = DeviceWrites.between(deviceBefore, device.bytesWritten());
        FlushCounters after = counters.get();
        return new MeasuredWindow(before, after, (end - start) / 1e9, deviceBytes, cpuNanos);
    }
}
