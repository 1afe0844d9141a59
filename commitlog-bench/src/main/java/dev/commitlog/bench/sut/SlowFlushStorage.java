package dev.commitlog.bench.sut;

import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * The production storage layer with a fixed extra latency after every flush, paid in parallel by
 * concurrent flushes: a stand-in for a device whose sync is slow but runs many at once (network
 * block storage, a deep NVMe queue), which this project's VM disk is not. Only for the sweep's
 * {@code --device-latency-us}: the real fdatasync still runs, so nothing is less durable.
 */
final class SlowFlushStorage implements StorageLayer {
    private final StorageLayer delegate;
    private final long extraNanos;

    SlowFlushStorage(StorageLayer delegate, long extraNanos) {
        this.delegate = delegate;
        this.extraNanos = extraNanos;
    }

    @Override
    public SegmentFile create(Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions) throws IOException {
        return new SlowFile(delegate.create(path, size, header, permissions));
    }

    @Override
    public SegmentFile open(Path path, boolean writable) throws IOException {
        return new SlowFile(delegate.open(path, writable));
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

    private void pause() {
        long deadline = System.nanoTime() + extraNanos;
        for (long left = extraNanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private final class SlowFile implements SegmentFile {
        private final SegmentFile file;

        SlowFile(SegmentFile file) {
            this.file = file;
        }

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
            file.flush(from, to);
            pause();
        }

        @Override
        public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
            file.flushHeaderAndRange(headerLength, from, to);
            pause();
        }

        @Override
        public void flushHeaderAndRange(int headerLength, int from, int to, int lane) throws IOException {
            file.flushHeaderAndRange(headerLength, from, to, lane);
            pause();
        }

        @Override
        public void close() {
            file.close();
        }
    }
}
