package dev.commitlog;

import dev.commitlog.io.MappedStorageLayer;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** The production layer, except that flushes can be held back until released. */
final class HeldFlushStorageLayer implements StorageLayer {
    private final StorageLayer delegate = new MappedStorageLayer();
    private volatile CountDownLatch hold;
    final AtomicInteger flushesStarted = new AtomicInteger();

    void holdFlushes() {
        hold = new CountDownLatch(1);
    }

    void releaseFlushes() {
        CountDownLatch latch = hold;
        hold = null;
        if (latch != null) {
            latch.countDown();
        }
    }

    @Override
    public SegmentFile create(Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions) throws IOException {
        return wrap(delegate.create(path, size, header, permissions));
    }

    @Override
    public SegmentFile open(Path path, boolean writable) throws IOException {
        return wrap(delegate.open(path, writable));
    }

    @Override
    public List<Path> list(Path directory) throws IOException {
        return delegate.list(directory);
    }

    @Override
    public long size(Path path) throws IOException {
        return delegate.size(path);
    }

    @Override
    public void delete(Path path) throws IOException {
        delegate.delete(path);
    }

    @Override
    public void syncDirectory(Path directory) throws IOException {
        delegate.syncDirectory(directory);
    }

    private SegmentFile wrap(SegmentFile file) {
        return new SegmentFile() {
            @Override
            public Path path() {
                return file.path();
            }

            @Override
            public int size() {
                return file.size();
            }

            @Override
            public ByteBuffer buffer() {
                return file.buffer();
            }

            @Override
            public void flush(int from, int to) throws IOException {
                flushesStarted.incrementAndGet();
                CountDownLatch latch = hold;
                if (latch != null) {
                    try {
                        latch.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted", e);
                    }
                }
                file.flush(from, to);
            }

            @Override
            public void close() {
                file.close();
            }
        };
    }
}
