package dev.commitlog.async;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.AppendCallback;
import dev.commitlog.WaitingThreads;
import dev.commitlog.sync.SyncService;
import dev.commitlog.sync.Waiter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The completion thread against a scripted sync service, with the interleavings that a loaded
 * machine produces now and then forced every time: the thread is held between its read of the
 * durable position and its read of the failure and closing flags while the log's last flush (or a
 * flush and then a failure) happens. A record that flush covered is durable and must be completed
 * as durable, never failed (CI saw it failed once, in SimulatedPowerLossTest's async Batch run).
 */
class AsyncCompletionsTest {

    @Test
    void aRecordTheLastFlushOnCloseCoveredCompletesAsDurable() throws Exception {
        ScriptedSync sync = new ScriptedSync();
        Outcomes outcomes = new Outcomes();
        AsyncCompletions completions = submitted(sync, outcomes, "A", "B");

        sync.durable = 100; // the first flush covers A only
        assertTrue(sync.heldAfterDurableRead.await(10, TimeUnit.SECONDS), "the completion thread read the durable position");

        sync.durable = 200; // close: the sync service's last flush covers B, then the completions close
        Thread closer = new Thread(completions::close, "closer");
        closer.start();
        WaitingThreads.awaitWaiting("the closer", closer); // close() has set its flag and is joining the completion thread
        sync.release.countDown();
        closer.join(10_000);

        assertFalse(closer.isAlive(), "close returned");
        assertEquals(List.of("A durable at 0", "B durable at 100"), outcomes.seen);
    }

    @Test
    void aRecordAFlushCoveredBeforeALaterFlushFailedCompletesAsDurable() throws Exception {
        ScriptedSync sync = new ScriptedSync();
        Outcomes outcomes = new Outcomes();
        AsyncCompletions completions = submitted(sync, outcomes, "A", "B", "C");

        sync.durable = 100;
        assertTrue(sync.heldAfterDurableRead.await(10, TimeUnit.SECONDS), "the completion thread read the durable position");
        sync.durable = 200; // a flush covers B
        sync.failure = new IllegalStateException("the next flush failed"); // and the one after it fails: C is not durable
        sync.release.countDown();
        outcomes.awaitCount(3);
        completions.close();

        assertEquals(List.of("A durable at 0", "B durable at 100", "C failed at 200: the next flush failed"), outcomes.seen);
    }

    /**
     * Thread churn does not grow the rings: a registration drops the rings of submitters that ended
     * with nothing left to complete, and keeps a live submitter's (even empty) and an ended one's
     * with a record still pending, which completes in order.
     */
    @Test
    void theRingsOfEndedSubmittersAreDroppedOnceTheirRecordsComplete() throws Exception {
        ScriptedSync sync = new ScriptedSync();
        sync.release.countDown(); // nothing held
        Outcomes outcomes = new Outcomes();
        AsyncCompletions completions = new AsyncCompletions(sync, 16, "test");
        CountDownLatch liveMayEnd = new CountDownLatch(1);
        CountDownLatch liveRegistered = new CountDownLatch(1);
        Thread live = new Thread(() -> {
            completions.register();
            liveRegistered.countDown();
            try {
                liveMayEnd.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "live submitter");
        live.start();
        liveRegistered.await();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++) { // one submitter after another, each with one record of 100 bytes, then it ends
            long position = 100L * i;
            String name = "T" + i;
            expected.add(name + " durable at " + position);
            runToEnd(() -> completions.register().add(position, position + 100, outcomes.callback(name), null));
        }

        sync.durable = 5_000; // covers the first 50
        outcomes.awaitCount(50);
        runToEnd(completions::register);
        assertEquals(1 + 50 + 1, completions.rings(), "kept: the live submitter's, the 50 ended ones' with a record pending, the new one");

        sync.durable = 10_000;
        outcomes.awaitCount(100);
        runToEnd(completions::register);
        assertEquals(1 + 1, completions.rings(), "kept: the live submitter's and the new one");
        assertEquals(expected, outcomes.seen);
        liveMayEnd.countDown();
        live.join();
        completions.close();
    }

    private static void runToEnd(Runnable work) throws InterruptedException {
        Thread thread = new Thread(work, "short-lived submitter");
        thread.start();
        thread.join();
    }

    /** A completion thread with one submitter's records, 100 bytes each from position 0, named in order. */
    private static AsyncCompletions submitted(ScriptedSync sync, Outcomes outcomes, String... names) {
        AsyncCompletions completions = new AsyncCompletions(sync, 16, "test");
        AsyncCompletions.Submitter submitter = completions.register();
        for (int i = 0; i < names.length; i++) {
            submitter.add(100L * i, 100L * (i + 1), outcomes.callback(names[i]), null);
        }
        return completions;
    }

    /** Callbacks that record what they were told, in order. */
    private static final class Outcomes {
        final List<String> seen = new CopyOnWriteArrayList<>();

        AppendCallback callback(String name) {
            return AppendCallback.of(position -> {
                seen.add(name + " durable at " + position);
            }, (position, cause) -> {
                seen.add(name + " failed at " + position + ": " + cause.getMessage());
            });
        }

        void awaitCount(int count) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (seen.size() < count) {
                assertTrue(System.nanoTime() < deadline, () -> "only " + seen);
                LockSupport.parkNanos(100_000);
            }
        }
    }

    /**
     * A sync service whose durable position and failure the test sets. The first call to
     * {@link #failure()} that follows a read of a positive durable position (the completion
     * thread's order: await, durable position, failure, closing) holds until released.
     */
    private static final class ScriptedSync implements SyncService {
        volatile long durable;
        volatile RuntimeException failure;
        final CountDownLatch heldAfterDurableRead = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private volatile boolean readPositive;

        @Override
        public void await(long position, Waiter waiter) {
            while (durable < position && failure == null) {
                LockSupport.parkNanos(100_000);
            }
        }

        @Override
        public long durablePosition() {
            long value = durable;
            if (value > 0) {
                readPositive = true;
            }
            return value;
        }

        @Override
        public RuntimeException failure() {
            if (readPositive && heldAfterDurableRead.getCount() > 0) {
                heldAfterDurableRead.countDown();
                try {
                    assertTrue(release.await(10, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return failure;
        }

        @Override
        public void start() {
        }

        @Override
        public void afterAppend(long endPosition, Waiter waiter) {
        }

        @Override
        public void syncUpTo(long position, Waiter waiter) {
        }

        @Override
        public void requestSync(long position) {
        }

        @Override
        public void close() {
        }
    }
}
