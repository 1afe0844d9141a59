package dev.commitlog.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.bench.device.DeviceWrites;
import dev.commitlog.bench.sut.FlushCounters;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** CPU per record: the window's process CPU over the appends counted in it, and what is unknown stays unknown. */
class ProcessCpuTest {

    @Test
    void cpuPerRecordIsTheWindowsCpuOverItsRecordsInMicroseconds() {
        assertEquals(2_500_000_000L, ProcessCpu.between(1_000_000_000L, 3_500_000_000L));
        assertEquals(12.5, ProcessCpu.microsPerRecord(2_500_000_000L, 200_000), 1e-12);
        assertEquals(0.0, ProcessCpu.microsPerRecord(0, 10), "a window shorter than one tick reads 0, not unknown");
        assertTrue(Double.isNaN(ProcessCpu.microsPerRecord(ProcessCpu.UNKNOWN, 10)));
        assertTrue(Double.isNaN(ProcessCpu.microsPerRecord(1_000, 0)), "no record, no figure");
        assertEquals(ProcessCpu.UNKNOWN, ProcessCpu.between(ProcessCpu.UNKNOWN, 5));
        assertEquals(ProcessCpu.UNKNOWN, ProcessCpu.between(7, ProcessCpu.UNKNOWN));
        assertEquals(ProcessCpu.UNKNOWN, ProcessCpu.between(7, 6));
    }

    @Test
    void theProcessClockCountsWorkDoneOnAnyThread() throws Exception {
        long before = ProcessCpu.nanos();
        assertTrue(before >= 0, "HotSpot counts the process's CPU time");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] spun = new long[1];
        // Spins until the thread's own CPU clock (nanosecond resolution, another clock) has counted
        // 200 ms: wall time would not do on a loaded machine, where a spinning thread gets a share.
        Thread spinner = new Thread(() -> {
            long start = threads.getCurrentThreadCpuTime();
            long x = 0;
            while (threads.getCurrentThreadCpuTime() - start < 200_000_000L) {
                x += x * 31 + 1;
            }
            spun[0] = threads.getCurrentThreadCpuTime() - start + (x == 42 ? 1 : 0);
        });
        spinner.start();
        spinner.join();
        long spent = ProcessCpu.between(before, ProcessCpu.nanos());
        // one 10 ms tick either side of the span allowed for
        assertTrue(spent >= spun[0] - 20_000_000L, spent + " ns of process CPU while another thread spun for " + spun[0] + " ns");
    }

    @Test
    void aCellsCpuPerRecordIsItsWindowsCpuOverTheAppendsCountedInIt() {
        Histogram[] writers = {CellResults.newHistogram(), CellResults.newHistogram()};
        for (int i = 0; i < 3_000; i++) {
            writers[0].recordValue(10_000);
        }
        for (int i = 0; i < 1_000; i++) {
            writers[1].recordValue(20_000);
        }
        MeasuredWindow window = new MeasuredWindow(FlushCounters.UNKNOWN, FlushCounters.UNKNOWN, 2.0,
                DeviceWrites.UNKNOWN, 50_000_000L);
        CellResult cell = CellResults.summarise("commitlog", "batch", 2, writers, window, 100, 112);
        assertEquals(2_000, cell.opsPerSec(), 1e-9);
        assertEquals(12.5, cell.cpuUsPerRecord(), 1e-9, "50 ms of CPU over 4,000 appends");

        MeasuredWindow unmeasured = new MeasuredWindow(FlushCounters.UNKNOWN, FlushCounters.UNKNOWN, 2.0,
                DeviceWrites.UNKNOWN, ProcessCpu.UNKNOWN);
        assertTrue(Double.isNaN(CellResults.summarise("commitlog", "batch", 2, writers, unmeasured, 100, 112).cpuUsPerRecord()));
    }
}
