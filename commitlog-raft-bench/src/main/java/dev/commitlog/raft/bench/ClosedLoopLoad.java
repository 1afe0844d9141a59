package dev.commitlog.raft.bench;

import com.alipay.sofa.jraft.Closure;
import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.entity.Task;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A closed loop of {@code inflight} slots over a cluster's groups (slot i drives group i mod
 * groups): each slot keeps one task in flight and submits the next from its closure. A task is
 * committed when its closure runs with success (the entry is durable on a majority and applied on
 * the leader); its latency runs from {@code Node.apply} to that closure.
 */
final class ClosedLoopLoad implements AutoCloseable {
    /** Latencies in microseconds, up to a minute. */
    private static final long MAX_LATENCY_MICROS = TimeUnit.MINUTES.toMicros(1);
    /** How long a slot whose group has no leader waits before it looks again. */
    private static final long RETRY_MILLIS = 20;

    private final BenchCluster cluster;
    private final ByteBuffer payload;
    private final List<Slot> slots = new ArrayList<>();
    private final Recorder latencies = new Recorder(MAX_LATENCY_MICROS, 3);
    private final LongAdder committed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final AtomicInteger outstanding = new AtomicInteger();
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "raft-bench-retry");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean running;

    ClosedLoopLoad(BenchCluster cluster, int inflight, int payloadBytes) {
        this.cluster = cluster;
        // Read-only, shared by every task: each task gets its own duplicate (position and limit).
        byte[] bytes = new byte[payloadBytes];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        this.payload = ByteBuffer.wrap(bytes).asReadOnlyBuffer();
        for (int i = 0; i < inflight; i++) {
            slots.add(new Slot(i % cluster.groups()));
        }
    }

    void start() {
        running = true;
        for (Slot slot : slots) {
            outstanding.incrementAndGet();
            slot.submit();
        }
    }

    long committed() {
        return committed.sum();
    }

    long failed() {
        return failed.sum();
    }

    /** Latencies recorded since the previous call (the first call: since start). */
    Histogram intervalLatencies() {
        return latencies.getIntervalHistogram();
    }

    /** Stops submitting and waits for the tasks in flight to finish, up to {@code timeout}. */
    boolean stop(Duration timeout) throws InterruptedException {
        running = false;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (outstanding.get() > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    @Override
    public void close() {
        running = false;
        retries.shutdownNow();
    }

    /** One task in flight at a time; the slot is the task's closure, reused for the next task. */
    private final class Slot implements Closure {
        private final int group;
        private Node leader;
        private long startNanos;

        Slot(int group) {
            this.group = group;
        }

        void submit() {
            if (!running) {
                outstanding.decrementAndGet();
                return;
            }
            if (leader == null || !leader.isLeader()) {
                leader = cluster.leader(group);
                if (leader == null) {
                    retryLater();
                    return;
                }
            }
            startNanos = System.nanoTime();
            leader.apply(new Task(payload.duplicate(), this));
        }

        @Override
        public void run(Status status) {
            if (status.isOk()) {
                latencies.recordValue(Math.min(MAX_LATENCY_MICROS, (System.nanoTime() - startNanos) / 1000));
                committed.increment();
                submit();
            } else {
                // Not leader any more, busy or shutting down: look for the leader again a little later.
                failed.increment();
                leader = null;
                retryLater();
            }
        }

        private void retryLater() {
            try {
                retries.schedule(this::submit, RETRY_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closed) {
                outstanding.decrementAndGet();
            }
        }
    }
}
