package dev.commitlog.raft;

import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.entity.Task;
import dev.commitlog.raft.RaftTestCluster.Member;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Applies operations {@code first, first + 1, ...} to a node from its own thread, keeping up to
 * {@code window} tasks outstanding, until {@link #finish} or until the node refuses a task (it is
 * shutting down); records which closures succeeded. Used to stop a leader while it holds tasks in
 * flight: the window stays full until the node stops.
 */
final class InFlightSubmitter {
    /** The node, kept: the cluster forgets a member's node when it stops it, while this thread may still submit. */
    private final Node node;
    private final long first;
    private final Semaphore window;
    private final int windowSize;
    private final CountDownLatch enoughAcknowledged;
    private final ConcurrentSkipListSet<Long> acknowledged = new ConcurrentSkipListSet<>();
    private final AtomicInteger failed = new AtomicInteger();
    private final Thread thread = new Thread(this::run, "in-flight-submitter");
    private volatile boolean stop;
    private int unknown;

    InFlightSubmitter(Member leader, long first, int window, int acknowledgedBeforeSignal) {
        this.node = leader.node;
        this.first = first;
        this.window = new Semaphore(window);
        this.windowSize = window;
        this.enoughAcknowledged = new CountDownLatch(acknowledgedBeforeSignal);
    }

    void start() {
        thread.start();
    }

    boolean awaitAcknowledged(Duration timeout) throws InterruptedException {
        return enoughAcknowledged.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void run() {
        try {
            for (long op = first; ; op++) {
                window.acquire();
                if (stop) {
                    window.release();
                    return;
                }
                long id = op;
                // Each task ends once: JRaft refusing a task at shutdown both throws and runs its closure.
                AtomicBoolean ended = new AtomicBoolean();
                try {
                    node.apply(new Task(ByteBuffer.allocate(Long.BYTES).putLong(0, id), status -> {
                        if (ended.compareAndSet(false, true)) {
                            if (status.isOk()) {
                                acknowledged.add(id);
                                enoughAcknowledged.countDown();
                            } else {
                                failed.incrementAndGet();
                            }
                            window.release();
                        }
                    }));
                } catch (IllegalStateException e) {
                    // JRaft refuses tasks once the node shuts down ("Node is shutting down"); the
                    // closure it runs for them may never run if its pool is gone.
                    if (ended.compareAndSet(false, true)) {
                        failed.incrementAndGet();
                        window.release();
                    }
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until tasks are in flight: closures are run in batches, so right after one the window
     * can be empty until this submitter refills it.
     */
    void awaitInFlight(Duration timeout) throws InterruptedException {
        RaftTestCluster.await("tasks in flight", timeout, () -> inFlight() > 0);
    }

    /** Tasks submitted whose closures have not run yet. */
    int inFlight() {
        return windowSize - window.availablePermits();
    }

    /**
     * Stops submitting and waits up to 20 s for every submitted task's closure to run (the node must
     * be stopped or still running). A closure still outstanding then is an unknown outcome, never
     * an acknowledged one: JRaft 1.4.1 can accept a task while its node shuts down and drop it
     * without running its closure (seen once in a full verify).
     */
    void finish() throws InterruptedException {
        stop = true;
        thread.join();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (window.availablePermits() < windowSize && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        unknown = windowSize - window.availablePermits();
    }

    /** Tasks whose closures had not run when {@link #finish} gave up on them. */
    int unknown() {
        return unknown;
    }

    /** The operations whose closures succeeded, in increasing order. */
    List<Long> acknowledged() {
        return new ArrayList<>(acknowledged);
    }

    int failed() {
        return failed.get();
    }
}
