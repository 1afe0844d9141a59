package dev.commitlog;

import dev.commitlog.async.AsyncCompletions;
import dev.commitlog.instrument.AppenderMetrics;
import dev.commitlog.instrument.MetricsRecorder;
import dev.commitlog.segment.FrameWriter;
import dev.commitlog.sync.Waiter;

/** Per-thread state of the append path, created once per thread so that appends allocate nothing. */
final class AppendContext {
    /** This thread's frame in progress. */
    final FrameWriter frame = new FrameWriter();
    final AppenderMetrics metrics;
    final Waiter waiter;
    /** This thread's asynchronous appends awaiting completion; made on its first appendAsync. */
    AsyncCompletions.Submitter submitter;
    /** The record a typed asynchronous append in progress hands back to its callback, else null. */
    Object attachment;

    AppendContext(MetricsRecorder recorder) {
        this.metrics = recorder.registerAppender(Thread.currentThread());
        this.waiter = new Waiter(Thread.currentThread(), metrics);
    }

    /** Registers the record in {@link #frame} for its asynchronous {@code completion}, before it is published. */
    void registerCompletion(Object completion) {
        submitter.add(frame.position(), frame.endPosition(), completion, attachment);
    }
}
