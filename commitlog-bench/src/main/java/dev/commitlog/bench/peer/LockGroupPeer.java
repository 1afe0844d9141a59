package dev.commitlog.bench.peer;

import dev.commitlog.bench.sut.Appender;
import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.FlushCounters;
import dev.commitlog.bench.sut.SystemUnderTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The textbook group commit, the brief's "simple lock+condition group commit": under one lock an
 * append copies its record into a staging buffer; if no flush is running it becomes the leader,
 * swaps the staging buffer for an empty one and writes and syncs it with the lock released,
 * while followers that arrive meanwhile stage their records and wait on one condition, which the
 * leader signals (all waiters) when its sync returns. The next waiter to get the lock whose record
 * is not durable yet leads the next flush. No window, no spinning, no per-waiter parking.
 *
 * <p>The file is preallocated, zeroed and synced as {@link FsyncEachPeer}'s is, and wraps to offset
 * 0 at its end, so each fdatasync carries data only.
 */
public final class LockGroupPeer implements Contender {

    public static final String NAME = "lock-group";
    /** Staging capacity: a flush takes whatever was staged, so this bounds the bytes of one flush. */
    static final int STAGING_BYTES = 4 << 20;

    @Override
    public String system() {
        return NAME;
    }

    @Override
    public String settings() {
        return "lock-group: records staged under one ReentrantLock; a leader writes the staged bytes into one preallocated, zeroed "
                + "16 MiB file + force(false) with the lock released, followers wait on one Condition (signalAll)";
    }

    @Override
    public boolean durable() {
        return true;
    }

    @Override
    public SystemUnderTest open(Path directory, int recordBytes) throws IOException {
        if (recordBytes > STAGING_BYTES) {
            throw new IllegalArgumentException(recordBytes + "-byte records do not fit the " + STAGING_BYTES + "-byte staging buffer");
        }
        return new Instance(FsyncEachPeer.openPreallocated(directory.resolve("lock-group.log")), FsyncEachPeer.FILE_BYTES);
    }

    private static final class Instance implements SystemUnderTest {
        private final FileChannel channel;
        private final long capacity;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition flushed = lock.newCondition();
        // Guarded by lock: the buffer appends stage into, the empty one the next leader swaps in (the
        // same as staging while a leader writes the other, which it holds itself), and the counts.
        private ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES);
        private ByteBuffer spare = ByteBuffer.allocateDirect(STAGING_BYTES);
        private long staged;        // records staged since the log opened
        private long durable;       // records made durable
        private boolean flushing;
        private IOException failure;
        /** Where the next flush writes: the leader's alone (one at a time; the lock hands it on). */
        private long fileOffset;
        // Written by the leader under the lock, read by the harness without it (two reads: a pair
        // may straddle one flush, which a window of seconds does not notice).
        private volatile long flushes;
        private volatile long recordsFlushed;

        Instance(FileChannel channel, long capacity) {
            this.channel = channel;
            this.capacity = capacity;
        }

        @Override
        public Appender newAppender(int threadIndex) {
            return this::append;
        }

        private void append(byte[] record) throws IOException {
            lock.lock();
            try {
                while (staging.remaining() < record.length) { // the staging buffer is full: wait for the flush to take it
                    awaitFlush();
                }
                staging.put(record);
                long mine = ++staged;
                while (durable < mine) {
                    if (flushing) {
                        awaitFlush();
                    } else {
                        lead();
                    }
                }
            } finally {
                lock.unlock();
            }
        }

        private void awaitFlush() throws IOException {
            if (failure != null) {
                throw failure;
            }
            flushed.awaitUninterruptibly();
        }

        /** Writes and syncs what is staged, with the lock released; caller holds the lock. */
        private void lead() throws IOException {
            if (failure != null) {
                throw failure;
            }
            flushing = true;
            ByteBuffer batch = staging.flip();
            staging = spare;
            long upTo = staged;
            long records = upTo - durable;
            lock.unlock();
            Throwable failed = null;
            try {
                write(batch);
                channel.force(false);
            } catch (Throwable t) { // whatever it is, followers must not wait for this flush forever
                failed = t;
            } finally {
                lock.lock();
            }
            spare = batch.clear();
            flushing = false;
            if (failed != null) {
                failure = failed instanceof IOException io ? io : new IOException("lock-group flush failed", failed);
            } else {
                durable = upTo;
                recordsFlushed += records;   // only the leader writes these, one at a time
                flushes++;
            }
            flushed.signalAll();
            if (failed != null) {
                throw failure;
            }
        }

        private void write(ByteBuffer batch) throws IOException {
            long at = fileOffset + batch.remaining() > capacity ? 0 : fileOffset;   // wrap, as FsyncEachPeer does
            while (batch.hasRemaining()) {
                at += channel.write(batch, at);
            }
            fileOffset = at;
        }

        @Override
        public FlushCounters flushCounters() {
            return new FlushCounters(flushes, recordsFlushed);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
