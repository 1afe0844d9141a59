package dev.commitlog.bench.peer;

import dev.commitlog.bench.sut.Appender;
import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.FlushCounters;
import dev.commitlog.bench.sut.SystemUnderTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The baseline every group commit is measured against: each append writes its record after the
 * previous one and calls {@code force(false)} (fdatasync) before returning, under a lock, so there
 * is exactly one flush per record. Its ceiling is 1 / (fdatasync latency) whatever the thread count.
 *
 * <p>The file is preallocated with zeros and synced when the cell opens, as the commit log's
 * segments are, so each fdatasync carries data only and never a file-size change (which would
 * cost a journal commit and make this baseline look slower than it need be). When the records
 * reach the end of the preallocated space they wrap to offset 0: a circular log.
 */
public final class FsyncEachPeer implements Contender {

    public static final String NAME = "fsync-each";

    @Override
    public String system() {
        return NAME;
    }

    @Override
    public String settings() {
        return "fsync-each: FileChannel.write of each record into one preallocated, zeroed 16 MiB file + force(false), under one lock";
    }

    @Override
    public boolean durable() {
        return true;
    }

    /** Preallocated file size: minutes of appends at one fdatasync per record. */
    static final int FILE_BYTES = 16 << 20;

    @Override
    public SystemUnderTest open(Path directory, int recordBytes) throws IOException {
        FileChannel channel = openPreallocated(directory.resolve("fsync-each.log"));
        return new Instance(channel, FILE_BYTES);
    }

    /** A new file of {@link #FILE_BYTES} zeros, synced; closed again if preparing it fails. */
    static FileChannel openPreallocated(Path file) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            preallocate(channel);
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private static void preallocate(FileChannel channel) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
        for (long at = 0; at < FILE_BYTES; at += zeros.capacity()) {
            zeros.clear();
            while (zeros.hasRemaining()) {
                channel.write(zeros, at + zeros.position());
            }
        }
        channel.force(true);   // the size and the zeroed blocks, durable before the first append
    }

    private static final class Instance implements SystemUnderTest {
        private final FileChannel channel;
        private final long capacity;
        private final ReentrantLock lock = new ReentrantLock();
        private long position;              // guarded by lock
        private volatile long flushes;      // written under lock, read by the harness without it

        Instance(FileChannel channel, long capacity) {
            this.channel = channel;
            this.capacity = capacity;
        }

        @Override
        public Appender newAppender(int threadIndex) {
            return new Appender() {
                private ByteBuffer buffer;   // wraps the caller's array; rewrapped if it changes
                private byte[] wrapped;

                @Override
                public void append(byte[] record) throws IOException {
                    if (record != wrapped) {
                        wrapped = record;
                        buffer = ByteBuffer.wrap(record);
                    }
                    write(buffer.clear());
                }
            };
        }

        private void write(ByteBuffer record) throws IOException {
            lock.lock();
            try {
                long at = position + record.remaining() > capacity ? 0 : position;   // wrap
                while (record.hasRemaining()) {
                    at += channel.write(record, at);
                }
                channel.force(false);
                position = at;
                flushes++;   // only ever written under the lock, so the non-atomic increment is safe
            } finally {
                lock.unlock();
            }
        }

        @Override
        public FlushCounters flushCounters() {
            long n = flushes;
            return new FlushCounters(n, n);   // one record per flush by construction
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
