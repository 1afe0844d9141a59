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
 * The baseline every group commit is measured against: each append writes its record at the end
 * of one file and calls {@code force(false)} (fdatasync) before returning, under a lock, so there
 * is exactly one flush per record. Its ceiling is 1 / (fdatasync latency) whatever the thread count.
 */
public final class FsyncEachPeer implements Contender {

    public static final String NAME = "fsync-each";

    @Override
    public String system() {
        return NAME;
    }

    @Override
    public String mode() {
        return "";
    }

    @Override
    public String settings() {
        return "fsync-each: FileChannel.write at the end of one file + force(false), under one lock";
    }

    @Override
    public boolean durable() {
        return true;
    }

    @Override
    public SystemUnderTest open(Path directory, int recordBytes) throws IOException {
        return new Instance(FileChannel.open(directory.resolve("fsync-each.log"),
                StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    }

    private static final class Instance implements SystemUnderTest {
        private final FileChannel channel;
        private final ReentrantLock lock = new ReentrantLock();
        private long position;              // guarded by lock
        private volatile long flushes;      // written under lock, read by the harness without it

        Instance(FileChannel channel) {
            this.channel = channel;
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
                long at = position;
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
