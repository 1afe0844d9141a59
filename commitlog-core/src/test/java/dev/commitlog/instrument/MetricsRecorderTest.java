package dev.commitlog.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MetricsRecorderTest {

    /**
     * Every append from a thread of its own, as with a virtual thread per request, and nobody reads
     * the metrics: the recorder holds no more than the sweep interval of dead threads' recorders,
     * and the next snapshot still counts every append.
     */
    @Test
    void deadThreadsRecordersAreNotHeldWithoutBoundAndTheirAppendsStillCount() throws InterruptedException {
        MetricsRecorder recorder = new MetricsRecorder();
        int threads = 20 * MetricsRecorder.RETIRE_EVERY;
        int appendsEach = 3;
        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(() -> {
                AppenderMetrics metrics = recorder.registerAppender(Thread.currentThread());
                for (int a = 0; a < appendsEach; a++) {
                    metrics.appendStarted();
                    metrics.appendCompleted();
                }
            });
            thread.start();
            thread.join();
            assertTrue(recorder.appendersHeld() <= MetricsRecorder.RETIRE_EVERY,
                    "after " + (i + 1) + " short-lived threads the recorder holds " + recorder.appendersHeld() + " recorders");
        }
        assertEquals((long) threads * appendsEach, recorder.snapshot(0, 0).completedAppends());
        assertEquals(0, recorder.appendersHeld(), "a snapshot drops every dead thread's recorder");
    }
}
