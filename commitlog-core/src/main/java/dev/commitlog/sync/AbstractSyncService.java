package dev.commitlog.sync;

import dev.commitlog.CommitLogException;
import dev.commitlog.CommitLogFailedException;
import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.io.NoSpaceLeftException;
import dev.commitlog.segment.FlushTicket;
import dev.commitlog.segment.SegmentSyncer;
import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The flush machinery every mode shares: a sync thread that waits for work as the mode says,
 * flushes through the shared {@link SegmentSyncer} and wakes the appenders the flush covered; and
 * the <em>flush role</em>, which lets an appender that finds nobody flushing run the flush itself.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>The flush role is one CAS-guarded flag. Only its holder touches the syncer's scan state and
 *       the waiters' pending list; the CAS and the releasing volatile store order one holder's work
 *       before the next's. Nobody blocks on the role: a thread that fails to take it either waits for
 *       the durable position (appenders) or parks until the holder releases it (the sync thread).</li>
 *   <li>The role is held only to claim a flush and to publish finished ones, never across the
 *       write and sync: up to {@code pipelineDepth} claimed flushes run at once, each in the thread
 *       that claimed it (1, except in Adaptive, whose overlap trials decide when a second may
 *       start). A flush that finishes while another thread holds the role is published by that
 *       holder: every release of the role re-checks for a finished flush after a full fence, and
 *       the finisher marks its flush done before it tries the role, so one of the two always
 *       publishes it (Dekker again).</li>
 *   <li>Appenders wake the sync thread through {@link #requestFlush()}; the handshake is
 *       Dekker-style (the appender's publish or request, a full fence, then the read of
 *       {@code parked}; the sync thread's volatile write of {@code parked}, then the re-read of its
 *       condition), so a request is never lost while the thread parks. The same handshake, on
 *       {@code parkedForRole}, wakes a sync thread that waits for an inline flusher to finish.</li>
 *   <li>After a failed flush nothing is flushed or acknowledged again until the log is reopened:
 *       the failure is recorded by the role holder, and every later holder checks it first. The
 *       one exception is a write that found the disk full, which the holder retries
 *       ({@link DiskFullRetry}).</li>
 * </ul>
 */
abstract class AbstractSyncService implements SyncService, Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(SyncService.class);
    /** Idle spins before the sync thread parks; short, since spinning steals a core from appenders. */
    private static final int IDLE_SPINS = 100;
    private static final long CLOSE_DRAIN_NANOS = TimeUnit.SECONDS.toNanos(5);

    protected final SegmentSyncer syncer;
    protected final DurabilityWaiters waiters;
    private final CommitFailurePolicy failurePolicy;
    private final Thread thread;
    private final AtomicBoolean flushRole = new AtomicBoolean();
    private volatile boolean running = true;
    private volatile boolean parked;
    private volatile boolean parkedForRole;
    /** The highest position an appender or a caller of syncUpTo waits for. */
    private final AtomicLong requestedPosition = new AtomicLong();
    private volatile RuntimeException failure;
    /** Flushes, retrying a write that found the disk full; every other failure is fatal. */
    private final DiskFullRetry diskFull;
    /** How many claimed flushes may write and sync at the same time. */
    private final int pipelineDepth;

    /** What {@link #tryFlush()} did. */
    enum FlushAttempt {
        /** This thread ran a flush (published now, or once the flushes before it finish). */
        FLUSHED,
        /** There was nothing to flush, and no flush is outstanding. */
        NOTHING,
        /** Another thread holds the role, or the pipeline is full: flushes are outstanding. */
        BUSY
    }

    AbstractSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy, String name, SyncTuning tuning) {
        this(syncer, failurePolicy, name, tuning, 1);
    }

    AbstractSyncService(SegmentSyncer syncer, CommitFailurePolicy failurePolicy, String name, SyncTuning tuning,
                        int pipelineDepth) {
        if (pipelineDepth < 1 || pipelineDepth > SegmentSyncer.MAX_PIPELINE_DEPTH) {
            throw new IllegalArgumentException("flush pipeline depth " + pipelineDepth + " is outside 1.."
                    + SegmentSyncer.MAX_PIPELINE_DEPTH);
        }
        this.pipelineDepth = pipelineDepth;
        this.syncer = syncer;
        this.failurePolicy = failurePolicy;
        this.waiters = new DurabilityWaiters(syncer.durableSequence(), 1 << 16, tuning.cascadeWakeups(), tuning.maxYielders(),
                tuning.yieldWhenOthersWaiting(), tuning.waitSpins(), DurabilityWaiters.MAX_YIELD_NANOS);
        // A pipelined flush waiting out a full disk stops when another flush failed for good.
        this.diskFull = new DiskFullRetry(syncer, () -> running && failure == null);
        this.thread = new Thread(this, "commitlog-sync-" + name);
        this.thread.setDaemon(true);
    }

    @Override
    public void start() {
        thread.start();
    }

    @Override
    public final void run() {
        try {
            while (running && failure == null) {
                awaitWork();
                if (!running || failure != null) {
                    break;
                }
                if (tryFlush() != FlushAttempt.BUSY) {
                    afterFlush();
                } else {
                    awaitRoleReleased();
                }
            }
            drainOnClose();
        } catch (RuntimeException | Error e) {
            takeRole();
            fail(e);
            flushRole.set(false);
        }
    }

    /** Mode-specific: return when it is time to flush (or when closing). */
    protected abstract void awaitWork();

    /** Mode-specific: what to do after each flush (Group waits its window). */
    protected void afterFlush() {
    }

    /** Mode-specific, called by the role holder just before it flushes (Adaptive's gather). */
    protected void beforeFlush() {
    }

    /**
     * How long the last {@link #beforeFlush} waited before its flush; role holder only. Waiters
     * yield through a whole flush cycle, and a gather is part of it: counted out, a cycle stretched
     * by its gather looked like flushes no longer back to back, and every waiter parked.
     */
    protected long gatherNanos() {
        return 0;
    }

    /**
     * Claims and runs a flush of what is published, unless another thread holds the flush role or
     * the pipeline is full. Nothing is flushed after a failure, nor by an appender once close began
     * (the sync thread's last flushes then own the segments until the writer unmaps them).
     */
    protected final FlushAttempt tryFlush() {
        if (!flushRole.compareAndSet(false, true)) {
            return FlushAttempt.BUSY;
        }
        FlushTicket ticket = null;
        boolean outstanding = false;
        try {
            if (running && failure == null) {
                publishHoldingRole();
                int inFlight = syncer.outstanding();
                if (inFlight < pipelineDepth && !syncer.flushAbandoned()) { // none after a failed one, even before fail() ran
                    if (inFlight == 0) {
                        beforeFlush(); // never while a flush runs: its publication waits for the role
                    }
                    ticket = syncer.claimFlush(pipelineDepth);
                }
                outstanding = ticket == null && syncer.outstanding() > 0;
                if (ticket == null && !outstanding) {
                    flushed(System.nanoTime()); // caught up: Periodic's lag counts from here
                }
            }
        } catch (RuntimeException | Error e) {
            fail(e); // still holding the role: fail wakes the pending waiters
        } finally {
            releaseRole();
        }
        if (ticket == null) {
            return outstanding ? FlushAttempt.BUSY : FlushAttempt.NOTHING;
        }
        runClaimed(ticket);
        return FlushAttempt.FLUSHED;
    }

    /** Writes and syncs a claimed flush without the role, then publishes it or leaves it to the holder. */
    private void runClaimed(FlushTicket ticket) {
        Throwable failed = perform(ticket);
        if (failed != null) {
            takeRole();
            try {
                fail(failed);
            } finally {
                releaseRole();
            }
            return;
        }
        // perform's volatile store of the ticket's state, then the CAS: see the class comment
        if (flushRole.compareAndSet(false, true)) {
            try {
                publishHoldingRole();
            } finally {
                releaseRole();
            }
        }
    }

    /**
     * Writes and syncs a claimed flush (waiting out a full disk) and reports the ticket completed,
     * or abandoned and returns why. The ticket's owner, with or without the role.
     */
    private Throwable perform(FlushTicket ticket) {
        try {
            diskFull.perform(ticket);
            syncer.completed(ticket);
            return null;
        } catch (IOException | RuntimeException | Error e) {
            syncer.abandoned(ticket);
            return e;
        }
    }

    /** Publishes finished flushes in order and wakes the waiters they cover. Role holder only. */
    private void publishHoldingRole() {
        if (failure == null && syncer.publishCompleted()) {
            waiters.flushPublished(syncer.lastFlushNanos() + gatherNanos(), System.nanoTime());
            waiters.wakeCovered(syncer.durablePosition());
            flushed(System.nanoTime());
            published();
        }
    }

    /** Mode-specific, called by the role holder after each publication (Batch's hand-off choice). */
    protected void published() {
    }

    /**
     * Releases the role, first publishing any flush that finished while it was held: its thread
     * marked it done and then failed to take the role, so it relies on the holder.
     */
    private void releaseRole() {
        for (;;) {
            flushRole.set(false);
            VarHandle.fullFence(); // StoreLoad: the release before the reads of done flushes and the sync thread's flags
            if (failure != null || !syncer.hasCompletedUnpublished() || !flushRole.compareAndSet(false, true)) {
                break; // nothing finished, or the thread that just took the role publishes it
            }
            publishHoldingRole();
        }
        if (parkedForRole || (parked && flushRequested())) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Sync thread: parks until the role is released or an outstanding flush is published; every
     * publication happens under the role, so its release is the wake-up.
     */
    private void awaitRoleReleased() {
        parkedForRole = true; // volatile write, then the re-reads of the role and the pipeline
        if ((flushRole.get() || syncer.outstanding() > 0) && running && failure == null) {
            LockSupport.park(this);
        }
        parkedForRole = false;
    }

    private void takeRole() {
        while (!flushRole.compareAndSet(false, true)) {
            Thread.yield();
        }
    }

    /** Hook for Periodic, which tracks when the last flush completed. */
    protected void flushed(long nanoTime) {
    }

    /** Parks the sync thread until data is published, a flush is requested or the log closes. */
    protected final void awaitData() {
        for (int spins = 0; running && !flushRequested() && !unflushedData(); spins++) {
            if (spins < IDLE_SPINS) {
                Thread.onSpinWait();
                continue;
            }
            parked = true; // volatile write, then the volatile read of the next length word
            if (running && !flushRequested() && !unflushedData()) {
                LockSupport.park(this);
            }
            parked = false;
        }
    }

    /**
     * Whether a flush would find new data. The syncer's scan state belongs to the role holder (an
     * appender flushing inline may be unmapping a finished segment), so look only while holding the
     * role; if someone else holds it, answer yes and let the caller find out by trying to flush.
     */
    private boolean unflushedData() {
        if (!flushRole.compareAndSet(false, true)) {
            return true;
        }
        try {
            return syncer.hasUnflushedData();
        } finally {
            releaseRole(); // a flush may have finished meanwhile, relying on us to publish it
        }
    }

    /** Parks the sync thread for up to {@code nanos}, returning early on a flush request or close. */
    protected final void awaitRequest(long nanos) {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; running && !flushRequested() && left > 0; left = deadline - System.nanoTime()) {
            parked = true;
            if (running && !flushRequested()) {
                LockSupport.parkNanos(this, left);
            }
            parked = false;
        }
    }

    /** Parks the sync thread until an appender asks for a flush, or the log closes. */
    protected final void awaitRequest() {
        for (int spins = 0; running && !flushRequested(); spins++) {
            if (spins < IDLE_SPINS) {
                Thread.onSpinWait();
                continue;
            }
            parked = true;
            if (running && !flushRequested()) {
                LockSupport.park(this);
            }
            parked = false;
        }
    }

    /** Whether an appender or a caller of syncUpTo waits for a position that is not durable yet. */
    protected final boolean flushRequested() {
        return requestedPosition.get() > syncer.durablePosition();
    }

    /** Called by appenders after publishing: wakes the sync thread if it is parked. */
    protected final void requestFlush() {
        VarHandle.fullFence(); // StoreLoad: our published length word before the read of parked
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    /** Asks the sync thread to flush at least up to {@code position}, and wakes it. */
    protected final void requestFlushUpTo(long position) {
        if (requestedPosition.get() < position) {
            requestedPosition.accumulateAndGet(position, Math::max); // a full fence, as requestFlush needs
        }
        requestFlush();
    }

    /**
     * The leader/follower step: an appender that finds nobody flushing flushes itself, so a lone
     * writer pays no hand-off; otherwise it asks the sync thread and waits like any follower.
     */
    protected final void flushInlineOrWait(long endPosition, Waiter waiter) {
        if (syncer.durablePosition() >= endPosition) {
            return;
        }
        waiter.metrics.flushWaitStarted(); // flushing for our own record is waiting on commit too
        try {
            tryFlush();
            if (syncer.durablePosition() >= endPosition) {
                return;
            }
            if (syncer.claimedPosition() < endPosition) {
                // Someone else is flushing, or an earlier record was not published yet when we flushed.
                requestFlushUpTo(endPosition);
                wakeFromWindow(); // an explicit request does not wait out Group's window
            } // else a claimed flush covers it: it is published once the flushes before it finish
            waiters.await(endPosition, waiter);
        } finally {
            waiter.metrics.flushWaitEnded();
        }
        throwIfNotDurable(endPosition);
    }

    /** Waits until the durable position reaches {@code endPosition}; throws if flushing failed. */
    protected final void awaitDurable(long endPosition, Waiter waiter) {
        if (syncer.durablePosition() < endPosition) { // else covered already: not a wait, so not timed
            waiter.metrics.flushWaitStarted();
            waiters.await(endPosition, waiter);
            waiter.metrics.flushWaitEnded();
        }
        throwIfNotDurable(endPosition);
    }

    private void throwIfNotDurable(long endPosition) {
        if (syncer.durablePosition() < endPosition) {
            RuntimeException failed = failure;
            throw failed != null ? failed : new CommitLogException("commit log closed before position " + endPosition + " was durable");
        }
    }

    /** Flushes at once, in the calling thread if nobody else is flushing; waits for it. */
    @Override
    public void syncUpTo(long position, Waiter waiter) {
        checkNotFailed();
        flushInlineOrWait(position, waiter);
    }

    @Override
    public void requestSync(long position) {
        requestFlushUpTo(position); // after a failure nothing flushes: the request is simply never served
    }

    @Override
    public void await(long position, Waiter waiter) {
        waiters.await(position, waiter);
    }

    @Override
    public long durablePosition() {
        return syncer.durablePosition();
    }

    @Override
    public RuntimeException failure() {
        return failure;
    }

    private void checkNotFailed() {
        RuntimeException failed = failure;
        if (failed != null) {
            throw failed;
        }
    }

    private void drainOnClose() {
        // Appends that claimed space before close publish within microseconds; flush them too.
        long deadline = System.nanoTime() + CLOSE_DRAIN_NANOS;
        takeRole(); // after this no flush is claimed but ours (running is false)
        try {
            awaitRunningFlushes(); // the writer unmaps segments after close: no write may still read them
            do {
                publishHoldingRole();
                FlushTicket ticket = failure == null ? syncer.claimFlush(1) : null;
                Throwable failed = ticket == null ? null : perform(ticket);
                if (failed != null) {
                    fail(failed);
                }
            } while (failure == null && !syncer.flushAbandoned() && syncer.hasUnflushedData() && System.nanoTime() < deadline);
            publishHoldingRole(); // the last flush, if the deadline cut the loop short after it
            if (failure == null && !syncer.flushAbandoned()) {
                writeExactMark(); // before the writer unmaps the segment; never after a failed flush
            }
            waiters.wakeAll();
        } finally {
            flushRole.set(false);
        }
    }

    /**
     * Close, after the last flush was published and none failed: the durable position becomes the
     * tail segment's durable mark ({@link SegmentSyncer#writeExactMark}). A full disk leaves the older
     * mark, still a lower bound; a failed sync fails the log like any failed flush. Role holder only.
     */
    private void writeExactMark() {
        try {
            syncer.writeExactMark();
        } catch (NoSpaceLeftException e) {
            LOG.warn("commit log closed without writing its exact durable mark ({}): the older mark stays, a lower bound", e.getMessage());
        } catch (IOException | RuntimeException e) {
            fail(e);
        }
    }

    /** Waits for flushes claimed by other threads to finish writing and syncing. Role holder only. */
    private void awaitRunningFlushes() {
        while (syncer.flushRunning()) {
            LockSupport.parkNanos(this, 10_000);
        }
    }

    /** Records the failure and releases every waiter. Caller holds the flush role. */
    private void fail(Throwable cause) {
        if (failure != null) {
            LOG.error("commit log flush failed again after the first failure: {}", cause.toString());
            return; // the first failure is the cause the log reports; a pipelined flush may fail after it
        }
        long durable = syncer.durablePosition();
        String message = "commit log flush failed; nothing at or after log position " + durable
                + " is acknowledged, and the log accepts no appends until it is reopened: " + cause;
        failure = new CommitLogFailedException(message, cause);
        LOG.error(message, cause);
        waiters.wakeAll();
        LockSupport.unpark(thread);
        if (failurePolicy == CommitFailurePolicy.DIE) {
            LOG.error("commit_failure_policy is die: halting the JVM");
            Runtime.getRuntime().halt(100);
        }
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        LockSupport.unpark(thread);
        wakeFromWindow();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        takeRole();
        waiters.wakeAll();
        flushRole.set(false);
    }

    /** Group overrides this to cut its window short (on close, and for an explicit flush request). */
    protected void wakeFromWindow() {
    }

    protected final boolean running() {
        return running;
    }
}
