package dev.commitlog.retention;

import dev.commitlog.instrument.MetricsRecorder;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.lifecycle.ArchiveListener;
import dev.commitlog.lifecycle.CompletedSegment;
import dev.commitlog.segment.Segment;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code commitlog-lifecycle} thread: takes each segment the sync thread has finished, hands it
 * to the {@link ArchiveListener} (retrying until it succeeds), then deletes whatever
 * {@link SegmentRetention} now allows. File work stays off the sync thread, which only enqueues.
 *
 * <p>Assumptions and guarantees: {@link #segmentCompleted} is called by the flush-role holder (one thread at a time), in segment
 * order, and never blocks (an unbounded queue, one small task per segment). Segments are archived in
 * that order; a failing segment holds back the ones after it, so the archive never has a hole. On
 * {@link #close} the thread finishes the listener call in progress (waiting up to
 * {@link #CLOSE_WAIT_SECONDS}), stops retrying and drops queued segments: they are offered again
 * when the log is next opened.
 */
public final class SegmentLifecycle implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentLifecycle.class);
    private static final long MAX_RETRY_NANOS = TimeUnit.MINUTES.toNanos(1);
    private static final int CLOSE_WAIT_SECONDS = 10;

    private final ArchiveListener listener;
    private final SegmentRetention retention;
    private final MetricsRecorder metrics;
    private final long retryDelayNanos;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final ExecutorService executor = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "commitlog-lifecycle");
        thread.setDaemon(true);
        return thread;
    });

    /** @param listener the archive listener, or null when segments are not archived */
    public SegmentLifecycle(ArchiveListener listener, SegmentRetention retention, MetricsRecorder metrics, Duration retryDelay) {
        this.listener = listener;
        this.retention = retention;
        this.metrics = metrics;
        this.retryDelayNanos = retryDelay.toNanos();
    }

    /**
     * Offers the segments that were already complete when the log opened (every recovered one below
     * the tail): a crash may have interrupted their archiving. Call before the sync thread starts.
     */
    public void offerRecovered(List<SegmentRef> recovered, long tailId, StorageLayer storage) {
        if (listener == null) {
            return;
        }
        for (SegmentRef ref : recovered) {
            if (ref.id() < tailId) {
                submit(() -> {
                    SegmentHeader header = ref.readHeader(storage);
                    if (header == null) {
                        LOG.warn("commit log segment {} has a damaged header: not archived, and kept for an operator to inspect", ref.path());
                        retention.archived(ref.id());
                        return;
                    }
                    archive(new CompletedSegment(ref.id(), ref.path(), header.basePosition(), header.endPosition()));
                });
            }
        }
    }

    /**
     * Sync thread: {@code segment} is sealed and durable. Unmaps it (no appender touches it any
     * more) and hands it to the lifecycle thread (archive, deferred discards). Never blocks.
     */
    public void segmentDurable(Segment segment) {
        segment.file().close();
        segmentCompleted(new CompletedSegment(segment.id(), segment.file().path(), segment.basePosition(), segment.endPosition()));
    }

    /** Sync thread: {@code segment} is sealed and durable, and no writer touches it again. Never blocks. */
    void segmentCompleted(CompletedSegment segment) {
        submit(() -> {
            if (listener != null) {
                archive(segment);
            } else {
                retention.deleteEligible(); // a discard may have been waiting for this segment to complete
            }
        });
    }

    private void archive(CompletedSegment segment) throws IOException {
        long delay = retryDelayNanos;
        for (int attempt = 1; !closed(); attempt++) {
            try {
                listener.archive(segment);
            } catch (Exception | LinkageError | AssertionError e) { // anything the listener throws, but not the JVM failing
                metrics.archiveFailed();
                LOG.error("commit log archiving of {} (log positions {} to {}) failed, attempt {}; the segment and every later one "
                                + "are kept (discardUpTo does not delete them) and archiving is retried in {} ms",
                        segment.path(), segment.startPosition(), segment.endPosition(), attempt, TimeUnit.NANOSECONDS.toMillis(delay), e);
                if (awaitClosing(delay)) {
                    return;
                }
                delay = Math.min(delay * 2, MAX_RETRY_NANOS);
                continue;
            }
            metrics.segmentArchived();
            retention.archived(segment.id());
            return;
        }
    }

    private interface Task {
        void run() throws IOException;
    }

    private void submit(Task task) {
        try {
            executor.execute(() -> {
                if (closed()) {
                    return; // offered again when the log is next opened
                }
                try {
                    task.run();
                } catch (IOException | RuntimeException e) {
                    LOG.warn("commit log segment clean-up failed; the files stay until the next discard: {}", e.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            // Closed: the segment is offered again when the log is next opened.
        }
    }

    private boolean closed() {
        return closing.getCount() == 0;
    }

    /** Waits {@code nanos} or until closing; returns whether the log is closing. */
    private boolean awaitClosing(long nanos) {
        try {
            return closing.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /** Stops the thread after the listener call in progress, if any. */
    @Override
    public void close() {
        closing.countDown();
        executor.shutdown();
        try {
            if (!executor.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("commit log archive listener still running {} s after close; interrupting it", CLOSE_WAIT_SECONDS);
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            executor.shutdownNow();
        }
    }
}
