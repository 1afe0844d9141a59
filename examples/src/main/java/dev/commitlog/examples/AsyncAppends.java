package dev.commitlog.examples;

import dev.commitlog.AppendCallback;
import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asynchronous appends: {@code appendAsync} returns the record's position at once and says later,
 * on the log's completion thread, that the record is durable. One {@link AppendCallback} object
 * ({@link Acknowledgements}) serves every append, so appending allocates nothing; the
 * {@code CompletableFuture} form is there for code that composes futures.
 *
 * <p>Run it: {@code java -jar examples/target/commitlog-examples.jar async-appends [DIR]} (see
 * examples/README.md).
 */
public final class AsyncAppends {
    static final int CALLBACK_APPENDS = 20_000;
    static final int FUTURE_APPENDS = 100;

    private AsyncAppends() {
    }

    public static void main(String[] args) throws Exception {
        try (ExampleDirectory directory = ExampleDirectory.of(args, "async-appends")) {
            run(directory.path(), System.out);
        }
    }

    /**
     * Counts acknowledgements. Called on the completion thread only, in position order; the
     * counts are read after {@link #await}, whose latch orders them before the read.
     */
    static final class Acknowledgements implements AppendCallback {
        private final CountDownLatch outstanding;
        private long durable;
        private long failed;
        private long lastPosition = -1;
        private boolean inOrder = true;

        Acknowledgements(int appends) {
            this.outstanding = new CountDownLatch(appends);
        }

        @Override
        public void completed(long position, Throwable failure) {
            if (failure == null) {
                durable++; // a node would answer its client here
            } else {
                failed++;
            }
            inOrder &= position > lastPosition;
            lastPosition = position;
            outstanding.countDown();
        }

        boolean await(long timeout, TimeUnit unit) throws InterruptedException {
            return outstanding.await(timeout, unit);
        }
    }

    /** What the callbacks and futures reported, and how many records a replay from the first one found. */
    record Acknowledged(long durable, long failed, boolean inOrder, List<Long> futurePositions, long replayed) {
    }

    /** What {@link #main} does, in {@code directory}. */
    static Acknowledged run(Path directory, PrintStream out) throws IOException, InterruptedException, ExecutionException, TimeoutException {
        byte[] record = "an event of about forty bytes, say".getBytes(StandardCharsets.UTF_8);
        Acknowledgements acks = new Acknowledgements(CALLBACK_APPENDS);
        try (CommitLog log = CommitLog.open(CommitLogConfig.builder(directory).build())) {
            long start = System.nanoTime();
            long first = -1;
            for (int i = 0; i < CALLBACK_APPENDS; i++) {
                long position = log.appendAsync(record, 0, record.length, acks); // copies the bytes, returns at once
                first = first < 0 ? position : first;
            }
            List<CompletableFuture<Long>> futures = new ArrayList<>();
            for (int i = 0; i < FUTURE_APPENDS; i++) {
                futures.add(log.appendAsync(record, 0, record.length)); // completes with the position once durable
            }
            long submittedNanos = System.nanoTime() - start;
            CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);
            if (!acks.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("not every callback ran within 30 s");
            }
            long doneNanos = System.nanoTime() - start;
            List<Long> positions = new ArrayList<>();
            for (CompletableFuture<Long> future : futures) {
                positions.add(future.join());
            }
            long[] replayed = new long[1];
            log.replay(first, (position, bytes) -> replayed[0]++);
            Acknowledged result = new Acknowledged(acks.durable, acks.failed, acks.inOrder, positions, replayed[0]);
            if (result.durable() != CALLBACK_APPENDS || result.failed() != 0 || !result.inOrder()
                    || result.replayed() != CALLBACK_APPENDS + FUTURE_APPENDS) {
                throw new IllegalStateException("unexpected acknowledgements: " + result);
            }
            out.println(CALLBACK_APPENDS + " appendAsync calls with one reused callback and " + FUTURE_APPENDS + " returning a"
                    + " CompletableFuture were submitted in " + TimeUnit.NANOSECONDS.toMillis(submittedNanos) + " ms");
            out.println("all durable " + TimeUnit.NANOSECONDS.toMillis(doneNanos) + " ms after the first: the callback ran "
                    + result.durable() + " times, in position order, with no failure; the last future completed with position "
                    + positions.get(positions.size() - 1) + "; a replay finds all " + result.replayed() + " records");
            return result;
        }
    }
}
