package dev.commitlog.bench.sweep;

import dev.commitlog.CommitLog;
import dev.commitlog.bench.device.DeviceWrites;
import dev.commitlog.bench.sut.CommitLogContender;
import dev.commitlog.bench.sut.Discarder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Runs one asynchronous cell: {@code submitters} threads each keep up to {@code inFlight}
 * {@code CommitLog.appendAsync} calls outstanding (the allocation-free callback form) on a fresh
 * log, as a Kafka or BookKeeper client does. The rate is completions (durable appends) per second
 * of the measured window; the latency is from just before {@code appendAsync} to the callback.
 * After the window each submitter stops submitting and waits for all it has in flight, so the log
 * closes with nothing outstanding.
 */
final class AsyncCell {
    /** The mode label's suffix: {@code adaptive-async}, {@code group-2ms-async}. */
    static final String SUFFIX = "-async";

    private final CommitLogContender contender;
    private final int submitters;
    private final int inFlight;
    private final CellTiming timing;
    /** What each submitter appends in turn, from a record of its own (the closed loop's records). */
    private final byte[][] records;
    private final DeviceWrites device;
    private final CellPhase phase = new CellPhase();

    AsyncCell(CommitLogContender contender, int submitters, int inFlight, CellTiming timing, byte[][] records,
              DeviceWrites device) {
        this.contender = contender;
        this.submitters = submitters;
        this.inFlight = inFlight;
        this.timing = timing;
        this.records = LogSections.checked(records);
        this.device = device;   // every asynchronous mode completes an append once it is durable
    }

    String label() {
        return label(contender);
    }

    /** The column label of {@code contender}'s asynchronous cells. */
    static String label(CommitLogContender contender) {
        return contender.mode() + SUFFIX;
    }

    CellResult run(Path directory) throws IOException, InterruptedException {
        AsyncSubmitter[] submitting = new AsyncSubmitter[submitters];
        for (int i = 0; i < submitters; i++) {
            submitting[i] = new AsyncSubmitter(inFlight, phase);
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        Thread[] threads = new Thread[submitters];

        try (CommitLog log = contender.openLog(directory)) {
            Discarder discarder = contender.startDiscarding(log);
            try {
                for (int i = 0; i < submitters; i++) {
                    AsyncSubmitter s = submitting[i];
                    int first = i;   // submitters start at different records, as the closed-loop writers do
                    threads[i] = new Thread(() -> submit(log, s, first, start, failure), "bench-submitter-" + i);
                    threads[i].setDaemon(true);
                    threads[i].start();
                }
                start.countDown();
                MeasuredWindow window = MeasuredWindow.run(timing, phase, () -> CommitLogContender.flushCounters(log), device);

                CellThreads.joinAll(threads, name());
                CellThreads.rethrow(failure.get(), name());
                Histogram[] histograms = new Histogram[submitters];
                for (int i = 0; i < submitters; i++) {
                    histograms[i] = submitting[i].histogram();
                }
                return CellResults.summarise(contender.system(), label(), submitters, histograms, window,
                        records[0].length, contender.frameBytes(records[0].length));
            } finally {
                phase.stop();   // on any failure, release the submitters before the log is closed
                start.countDown();
                discarder.close();
            }
        }
    }

    private String name() {
        return label() + ", " + submitters + " submitting threads";
    }

    private void submit(CommitLog log, AsyncSubmitter submitter, int first, CountDownLatch start,
                        AtomicReference<Throwable> failure) {
        try {
            start.await();
            submitter.submitUntilStopped(log, records, first);
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            phase.stop();
        }
    }
}
