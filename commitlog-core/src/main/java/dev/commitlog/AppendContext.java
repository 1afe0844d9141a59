package dev.commitlog;

import dev.commitlog.async.AsyncCompletions;
import dev.commitlog.record.FrameChecksum;
import dev.commitlog.segment.AppendSlot;
import dev.commitlog.sync.Waiter;

/** Per-thread state of the append path, created once per thread so that appends allocate nothing. */
final class AppendContext {
    final AppendSlot slot = new AppendSlot();
    final FrameChecksum checksum = new FrameChecksum();
    final Waiter waiter = new Waiter(Thread.currentThread());
    /** This thread's asynchronous appends awaiting completion; made on its first appendAsync. */
    AsyncCompletions.Submitter submitter;
}
