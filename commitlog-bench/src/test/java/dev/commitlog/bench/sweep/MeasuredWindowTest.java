package dev.commitlog.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.commitlog.bench.device.DeviceWrites;
import dev.commitlog.bench.sut.FlushCounters;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A window's CPU time is the window's own: not the warmup's, whatever ran in the same process before it. */
class MeasuredWindowTest {

    @Test
    void cpuSpentWhileWarmingUpIsNotTheWindows() throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        CellPhase phase = new CellPhase();
        long[] warmupCpu = new long[1];
        // Spins through the warmup, then idles through the window until the cell stops.
        Thread busyWarmup = new Thread(() -> {
            long start = threads.getCurrentThreadCpuTime();
            long x = 0;
            while (phase.now() == CellPhase.WARMUP) {
                x += x * 31 + 1;
            }
            warmupCpu[0] = threads.getCurrentThreadCpuTime() - start + (x == 42 ? 1 : 0);
            while (!phase.stopped()) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        busyWarmup.start();
        MeasuredWindow window = MeasuredWindow.run(new CellTiming(Duration.ofMillis(600), Duration.ofMillis(200)), phase,
                () -> FlushCounters.UNKNOWN, DeviceWrites.NONE);
        busyWarmup.join();

        assumeTrue(warmupCpu[0] >= 150_000_000L, "the machine gave the warmup's spinner only " + warmupCpu[0] + " ns");
        assertTrue(window.cpuNanos() >= 0, "measured");
        // A window that counted the warmup would hold at least the spinner's CPU. Below that, not a fixed figure: the
        // process CPU includes the JIT, the GC and earlier tests' threads, which a busy machine may run now.
        assertTrue(window.cpuNanos() < warmupCpu[0], window.cpuNanos() + " ns of CPU in a 200 ms window with nothing "
                + "busy, after a warmup that spun for " + warmupCpu[0] + " ns");
    }
}
