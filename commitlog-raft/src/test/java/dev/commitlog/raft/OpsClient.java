package dev.commitlog.raft;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A client of a Raft group: from its own thread, submits operations 1, 2, 3, ... to whichever node
 * leads now, up to {@code window} outstanding, and sorts each into one of three outcomes:
 * <ul>
 *   <li><b>acknowledged</b>: its closure ran with success on the node it was submitted to, i.e. the
 *       entry was committed (durable on a majority) and applied there. It must be in every state
 *       machine, once.</li>
 *   <li><b>failed</b>: its closure ran with an error (not the leader, stepped down, shut down). In
 *       Raft that does not mean the entry is gone: a leader that steps down fails the closures of
 *       entries the next leader may still commit.</li>
 *   <li><b>unknown</b>: no closure ever ran, because the node it was submitted to died first (or
 *       refused the submission).</li>
 * </ul>
 * An operation is never submitted twice, so a failed or unknown one may appear in the state
 * machines at most once, and nothing beyond the last number submitted may appear at all.
 */
final class OpsClient implements AutoCloseable {
    /** A node the client can submit to. */
    interface Target {
        /** Hands the operation to the node; false if it could not (the node is gone): then no closure will run. */
        boolean submit(long op, OpsClient client);
    }

    private final Supplier<Target> leader;
    private final int window;
    private final Semaphore permits;
    private final Map<Long, Target> pending = new ConcurrentHashMap<>();
    private final NavigableSet<Long> acknowledged = new ConcurrentSkipListSet<>();
    private final NavigableSet<Long> failed = new ConcurrentSkipListSet<>();
    private final NavigableSet<Long> unknown = new ConcurrentSkipListSet<>();
    private final AtomicLong next = new AtomicLong(1);
    private final Thread thread = new Thread(this::run, "ops-client");
    private volatile boolean paused = true;
    private volatile boolean idle = true;
    private volatile boolean closed;

    /** A paused client: {@link #resume} starts it. */
    OpsClient(Supplier<Target> leader, int window) {
        this.leader = leader;
        this.window = window;
        this.permits = new Semaphore(window);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        while (!closed) {
            if (paused) {
                idle = true;
                LockSupport.parkNanos(1_000_000);
                continue;
            }
            idle = false;
            try {
                if (!permits.tryAcquire(10, TimeUnit.MILLISECONDS)) {
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            }
            Target target = paused ? null : leader.get(); // paused again: the pause waits for idle, so submit nothing
            if (target == null) {
                permits.release();
                LockSupport.parkNanos(5_000_000);
                continue;
            }
            long op = next.getAndIncrement();
            pending.put(op, target);
            if (!target.submit(op, this)) {
                resolve(op, unknown);
            }
        }
    }

    /** Its closure ran with success. */
    void acknowledged(long op) {
        resolve(op, acknowledged);
    }

    /** Its closure ran with an error. */
    void failed(long op) {
        resolve(op, failed);
    }

    /** The target died: every operation still pending on it will never hear its outcome. */
    void abandon(Target target) {
        for (Map.Entry<Long, Target> entry : pending.entrySet()) {
            if (entry.getValue() == target) {
                resolve(entry.getKey(), unknown);
            }
        }
    }

    private void resolve(long op, NavigableSet<Long> outcome) {
        if (pending.remove(op) != null) {
            outcome.add(op);
            permits.release();
        }
    }

    /**
     * While paused: submits the next {@code count} operations (at most the window) to {@code target}
     * and waits until each has an outcome.
     */
    void submitTo(Target target, int count, Duration timeout) throws InterruptedException {
        if (!paused || !idle) {
            throw new IllegalStateException("pause the client first");
        }
        if (!permits.tryAcquire(count, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(count + " operations is more than the window allows now");
        }
        for (int i = 0; i < count; i++) {
            long op = next.getAndIncrement();
            pending.put(op, target);
            if (!target.submit(op, this)) {
                resolve(op, unknown);
            }
        }
        RaftTestCluster.await(count + " operations resolved", timeout, pending::isEmpty);
    }

    /** Stops submitting and waits until every submitted operation has an outcome. */
    void pause(Duration timeout) throws InterruptedException {
        paused = true;
        RaftTestCluster.await("the client to stop with every operation resolved (" + pending.size() + " pending)", timeout,
                () -> idle && pending.isEmpty());
    }

    void resume() {
        paused = false;
    }

    /** Operations below this number were submitted (or skipped); none at or above it was. */
    long submittedBelow() {
        return next.get();
    }

    NavigableSet<Long> acknowledged() {
        return acknowledged;
    }

    int failedCount() {
        return failed.size();
    }

    int unknownCount() {
        return unknown.size();
    }

    int window() {
        return window;
    }

    /** The operations not acknowledged, for messages. */
    List<Long> pendingOps() {
        return new ArrayList<>(pending.keySet());
    }

    @Override
    public void close() {
        closed = true;
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
