package dev.commitlog.raft;

import dev.commitlog.CommitLogException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A daemon thread that writes an index checkpoint when one is due: it looks every
 * {@value #INTERVAL_MILLIS} ms (a read of the durable position), once the groups are loaded. A
 * checkpoint that fails to be written is logged and tried again after
 * {@value #RETRY_MILLIS} ms; the thread ends when the log is closed or has failed (nothing more
 * can be made durable), or at {@link #stop()}.
 */
final class CheckpointTrigger implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointTrigger.class);
    static final long INTERVAL_MILLIS = 1_000;
    static final long RETRY_MILLIS = 60_000;

    private final IndexCheckpoints checkpoints;
    private final GroupRegistry registry;
    private final Thread thread;
    private volatile boolean stopped;

    private CheckpointTrigger(IndexCheckpoints checkpoints, GroupRegistry registry, String name) {
        this.checkpoints = checkpoints;
        this.registry = registry;
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
    }

    static CheckpointTrigger start(IndexCheckpoints checkpoints, GroupRegistry registry, String name) {
        CheckpointTrigger trigger = new CheckpointTrigger(checkpoints, registry, name);
        trigger.thread.start();
        return trigger;
    }

    @Override
    public void run() {
        long pause = INTERVAL_MILLIS;
        while (!stopped) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(pause));
            pause = INTERVAL_MILLIS;
            if (stopped || !registry.loaded() || !checkpoints.due()) {
                continue;
            }
            try {
                checkpoints.take(registry);
            } catch (IllegalStateException | CommitLogException e) {
                LOG.debug("index checkpoints of {} stop: {}", registry, e.toString());
                return; // closed or failed: nothing more becomes durable
            } catch (Exception e) {
                LOG.warn("writing an index checkpoint of {} failed; the previous one stays, trying again in {} ms", registry,
                        RETRY_MILLIS, e);
                pause = RETRY_MILLIS;
            }
        }
    }

    /** Ends the thread, waiting for a checkpoint being written to finish. */
    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
        if (Thread.currentThread() != thread) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
