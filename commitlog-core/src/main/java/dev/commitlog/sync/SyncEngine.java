package dev.commitlog.sync;

import dev.commitlog.CommitLogException;
import dev.commitlog.CommitLogFailedException;
import dev.commitlog.SyncTuning;
import dev.commitlog.config.CommitFailurePolicy;
import dev.commitlog.instrument.MetricsRecorder;
import dev.commitlog.io.NoSpaceLeftException;
import dev.commitlog.segment.SegmentSyncer;
import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sync engine every mode shares: the sync thread, the {@link FlushRole}, the flush itself
 * (claim, write and fdatasync, publish the durable position), the wake-ups of covered waiters,
 * failure and close. What differs between modes is one {@link SyncPolicy} per mode (when the sync
 * thread flushes, whether a flush is one step or a whole pass, whether and how an appender waits),
 * made outside the engine ({@link SyncModes}) and lent only a {@link FlushControl}.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>A flush runs only under the flush role, from claim to publication, so flushes run one at a
 *       time and the durable position only moves forward, to the end of a flush whose sync
 *       returned. Whoever takes the role flushes: the sync thread, or an appender that found
 *       nobody flushing (leader/follower).</li>
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
public final class SyncEngine implements SyncService, FlushControl {
    private static final Logger LOG = LoggerFactory.getLogger(SyncEngine.class);
    /** Idle spins before the sync thread parks; short, since spinning steals a core from appenders. */
    private static final int IDLE_SPINS = 100;
    private static final long CLOSE_DRAIN_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** The clock of a log: {@link System#nanoTime}, one instance, so every call site reading it sees one type. */
    static final LongSupplier NANO_TIME = System::nanoTime;

    private final SegmentSyncer syncer; // any-thread reads only; holder-only steps go through role.syncer()
    private final FlushRole role;
    private final DurabilityWaiters waiters;
    private final SyncPolicy policy;
    private final CommitFailurePolicy failurePolicy;
    private final DiskFullRetry diskFull;
    private final Thread thread;
    /**
     * What {@link #parkUntil} measures its deadline in: the clock the policy computed it
     * from (Periodic's next pass), so that whoever controls the policy's clock (a test) also
     * controls when the sync thread wakes. {@link #NANO_TIME} in a log. The engine's other waits
     * stay on {@link System#nanoTime}: the close drain's bound must run out even while a test's
     * clock stands still, and the waiters' yield budget is compared with flush durations the syncer
     * measures in real time.
     */
    private final LongSupplier clock;
    private volatile boolean running = true;
    private volatile boolean parked;
    private volatile boolean parkedForRole;
    /** The highest position an appender or a caller of syncUpTo waits for. */
    private final AtomicLong requestedPosition = new AtomicLong();
    private volatile RuntimeException failure;

    SyncEngine(SegmentSyncer syncer, CommitFailurePolicy failurePolicy, String name, SyncPolicy policy, DurabilityWaiters waiters,
               LongSupplier clock) {
        this.syncer = syncer;
        this.clock = clock;
        this.failurePolicy = failurePolicy;
        this.policy = policy;
        this.waiters = waiters;
        this.role = new FlushRole(syncer, waiters);
        this.diskFull = new DiskFullRetry(() -> running && failure == null);
        this.thread = new Thread(this::run, "commitlog-sync-" + name);
        this.thread.setDaemon(true);
    }

    /** The engine for {@code settings}' sync mode, with the mechanisms {@code tuning} keeps. */
    public static SyncEngine create(SyncSettings settings, SegmentSyncer syncer, MetricsRecorder metrics, SyncTuning tuning) {
        return create(settings, syncer, metrics, tuning, NANO_TIME);
    }

    /** As {@link #create(SyncSettings, SegmentSyncer, MetricsRecorder, SyncTuning)}, timed by {@code clock} (tests). */
    static SyncEngine create(SyncSettings settings, SegmentSyncer syncer, MetricsRecorder metrics, SyncTuning tuning, LongSupplier clock) {
        DurabilityWaiters waiters = DurabilityWaiters.forCores(syncer.durableSequence(), tuning.yieldBeforePark());
        return new SyncEngine(syncer, settings.failurePolicy(), settings.mode().name().toLowerCase(Locale.ROOT),
                SyncModes.create(settings, tuning, metrics, clock), waiters, clock);
    }

    @Override
    public void start() {
        thread.start();
    }

    private void run() {
        try {
            while (running && failure == null) {
                policy.awaitWork(this);
                if (!running || failure != null) {
                    break;
                }
                if (policy.flush(this) != FlushAttempt.BUSY) {
                    policy.afterFlush();
                } else {
                    awaitRoleReleased();
                }
            }
            drainOnClose();
        } catch (RuntimeException | Error e) {
            role.acquire();
            try {
                fail(e);
            } finally {
                role.release();
            }
        }
    }

    /**
     * Flushes what is published, unless another thread holds the flush role. Nothing is flushed
     * after a failure, nor by an appender once close began (the sync thread's last flush then owns
     * the segments until the writer unmaps them).
     */
    @Override
    public FlushAttempt tryFlush() {
        if (!role.tryAcquire()) {
            return FlushAttempt.BUSY;
        }
        try {
            if (!running || failure != null) {
                return FlushAttempt.NOTHING;
            }
            SegmentSyncer held = role.syncer();
            long gatheredNanos = policy.beforeFlush(held);
            if (!held.claimFlush()) {
                return FlushAttempt.NOTHING;
            }
            if (write(held)) {
                publish(held, gatheredNanos);
            }
            return FlushAttempt.FLUSHED;
        } catch (RuntimeException | Error e) {
            fail(e); // still holding the role: fail wakes the pending waiters
            return FlushAttempt.FLUSHED;
        } finally {
            releaseRole();
        }
    }

    /** Writes and syncs the claimed flush, waiting out a full disk; false (and the log failed) if it failed. Role holder. */
    private boolean write(SegmentSyncer held) {
        try {
            diskFull.writeClaimed(held);
            return true;
        } catch (IOException | RuntimeException | Error e) {
            fail(e);
            return false;
        }
    }

    /** Moves the durable position over the written flush and wakes the waiters it covers. Role holder. */
    private void publish(SegmentSyncer held, long gatheredNanos) {
        held.publishClaimed();
        long now = System.nanoTime();
        DurabilityWaiters wakeups = role.waiters();
        // A gather is part of the flush cycle waiters yield through: counted out, a cycle stretched by
        // its gather would look like flushes no longer back to back, and every waiter would park.
        wakeups.flushPublished(held.lastFlushNanos() + gatheredNanos, now);
        wakeups.wakeCovered(held.durablePosition());
        policy.published(held);
    }

    /**
     * A flush pass, Periodic's flush: under one hold of the role, flushes segment after segment
     * until everything appended before the pass began is durable (the position the writer had
     * claimed up to when the pass read it), then tells {@code covered}, still holding the role.
     * One flush per period, which covers at most the rest of
     * one segment, would fall further behind every period a writer fills more than a segment.
     * Segments still become durable in order, each left only once its end marker is, since every
     * step is {@link #tryFlush()}'s claim, write and publish. The pass ends short of its target,
     * and tells {@code covered} nothing, when a claim finds no newly published frame (an appender
     * still copying into its frame, or an open zero-copy claim: nothing after it can become
     * durable first), or when a flush fails.
     *
     * @param startedNanos when the pass began, before it read its target
     */
    @Override
    public FlushAttempt flushPass(long startedNanos, PassCovered covered) {
        if (!role.tryAcquire()) {
            return FlushAttempt.BUSY;
        }
        try {
            if (!running || failure != null) {
                return FlushAttempt.NOTHING;
            }
            SegmentSyncer held = role.syncer();
            long target = held.appendedPosition();
            FlushAttempt attempt = FlushAttempt.NOTHING;
            while (held.durablePosition() < target && held.claimFlush()) {
                attempt = FlushAttempt.FLUSHED;
                if (!write(held)) {
                    return attempt;
                }
                publish(held, 0);
            }
            if (held.durablePosition() >= target) {
                covered.covered(startedNanos, held);
            }
            return attempt;
        } catch (RuntimeException | Error e) {
            fail(e); // still holding the role: fail wakes the pending waiters
            return FlushAttempt.FLUSHED;
        } finally {
            releaseRole();
        }
    }

    /** Releases the role, then wakes the sync thread if it waits for the role or for a request now pending. */
    private void releaseRole() {
        role.release();
        VarHandle.fullFence(); // StoreLoad: the release before the reads of the sync thread's flags
        if (parkedForRole || (parked && flushRequested())) {
            LockSupport.unpark(thread);
        }
    }

    /** Sync thread: parks until the role is released (an inline flush ended). */
    private void awaitRoleReleased() {
        parkedForRole = true; // volatile write, then the re-read of the role
        if (role.isHeld() && running && failure == null) {
            LockSupport.park(this);
        }
        parkedForRole = false;
    }

    @Override
    public void park(Wake wake) {
        parkUntil(wake, false, 0);
    }

    @Override
    public void parkUntil(Wake wake, long deadlineNanos) {
        parkUntil(wake, true, deadlineNanos);
    }

    /**
     * The one park of the sync thread (Dekker's handshake with {@link #requestFlush()}: the volatile
     * write of {@code parked}, then the re-read of the condition; an appender publishes or
     * requests, fences, then reads {@code parked}), so a request is never lost while it parks.
     */
    private void parkUntil(Wake wake, boolean timed, long deadline) {
        for (int spins = 0; running && !woken(wake); spins++) {
            if (!timed && spins < IDLE_SPINS) {
                Thread.onSpinWait();
                continue;
            }
            long left = timed ? deadline - clock.getAsLong() : 0;
            if (timed && left <= 0) {
                return;
            }
            parked = true; // volatile write, then the re-read of the condition
            if (running && !woken(wake)) {
                if (timed) {
                    LockSupport.parkNanos(this, left);
                } else {
                    LockSupport.park(this);
                }
            }
            parked = false;
        }
    }

    private boolean woken(Wake wake) {
        return flushRequested() || (wake == Wake.REQUEST_OR_DATA && unflushedData());
    }

    /**
     * Whether a flush would find new data. The syncer's scan state belongs to the role holder, so
     * look only while holding the role; if someone else holds it, answer yes and let the caller
     * find out by trying to flush.
     */
    private boolean unflushedData() {
        if (!role.tryAcquire()) {
            return true;
        }
        try {
            return role.syncer().hasUnflushedData();
        } finally {
            role.release();
        }
    }

    /** Whether an appender or a caller of syncUpTo waits for a position that is not durable yet. */
    private boolean flushRequested() {
        return requestedPosition.get() > syncer.durablePosition();
    }

    /** Called by appenders after publishing: wakes the sync thread if it is parked. */
    @Override
    public void requestFlush() {
        VarHandle.fullFence(); // StoreLoad: our published length word before the read of parked
        if (parked) {
            LockSupport.unpark(thread);
        }
    }

    /** Asks the sync thread to flush at least up to {@code position}, and wakes it. */
    @Override
    public void requestFlushUpTo(long position) {
        if (requestedPosition.get() < position) {
            requestedPosition.accumulateAndGet(position, Math::max); // a full fence, as requestFlush needs
        }
        requestFlush();
    }

    /**
     * The leader/follower step: an appender that finds nobody flushing flushes itself, so a lone
     * writer pays no hand-off; otherwise it asks the sync thread and waits like any follower.
     */
    @Override
    public void flushInlineOrWait(long endPosition, Waiter waiter) {
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
                policy.wake(); // an explicit request does not wait out Group's window
            } // else the running flush covers it
            waiters.await(endPosition, waiter);
        } finally {
            waiter.metrics.flushWaitEnded();
        }
        throwIfNotDurable(endPosition);
    }

    /** Waits until the durable position reaches {@code endPosition}; throws if flushing failed. */
    @Override
    public void awaitDurable(long endPosition, Waiter waiter) {
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

    @Override
    public void afterAppend(long endPosition, Waiter waiter) {
        policy.afterAppend(this, endPosition, waiter);
    }

    /** Flushes at once, in the calling thread if nobody else is flushing; waits for it. */
    @Override
    public void syncUpTo(long position, Waiter waiter) {
        checkNotFailed();
        flushInlineOrWait(position, waiter);
    }

    @Override
    public void requestSync(long position) {
        policy.requestSync(this, position); // after a failure nothing flushes: the request is simply never served
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

    /** Sync thread, once stopped: flushes what appenders published before close, then writes the exact mark. */
    private void drainOnClose() {
        // Appends that claimed space before close publish within microseconds; flush them too.
        long deadline = System.nanoTime() + CLOSE_DRAIN_NANOS;
        role.acquire(); // after this no flush runs but ours (running is false)
        try {
            SegmentSyncer held = role.syncer();
            while (failure == null && held.hasUnflushedData() && System.nanoTime() < deadline) {
                if (!held.claimFlush()) {
                    Thread.yield(); // the writer is rolling over to the next segment
                    continue;
                }
                if (write(held)) {
                    publish(held, 0);
                }
            }
            if (failure == null) {
                writeExactMark(held); // before the writer unmaps the segment; never after a failed flush
            }
            role.waiters().wakeAll();
        } finally {
            role.release();
        }
    }

    /**
     * Close, after the last flush was published and none failed: the durable position becomes the
     * tail segment's durable mark ({@link SegmentSyncer#writeExactMark}). A full disk leaves the older
     * mark, still a lower bound; a failed sync fails the log like any failed flush. Role holder.
     */
    private void writeExactMark(SegmentSyncer held) {
        try {
            held.writeExactMark();
        } catch (NoSpaceLeftException e) {
            LOG.warn("commit log closed without writing its exact durable mark ({}): the older mark stays, a lower bound", e.getMessage());
        } catch (IOException | RuntimeException e) {
            fail(e);
        }
    }

    /** Records the failure and releases every waiter. Role holder. */
    private void fail(Throwable cause) {
        if (failure != null) {
            LOG.error("commit log flush failed again after the first failure: {}", cause.toString());
            return; // the first failure is the cause the log reports
        }
        long durable = syncer.durablePosition();
        String message = "commit log flush failed; nothing at or after log position " + durable
                + " is acknowledged, and the log accepts no appends until it is reopened: " + cause;
        failure = new CommitLogFailedException(message, cause);
        LOG.error(message, cause);
        role.waiters().wakeAll();
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
        policy.wake();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        role.acquire();
        try {
            role.waiters().wakeAll();
        } finally {
            role.release();
        }
    }
}
