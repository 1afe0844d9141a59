package dev.commitlog.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;

/**
 * A storage layer that passes every operation to another; a wrapper overrides only what it
 * changes (the space budget, a slowed or instrumented device).
 */
public abstract class ForwardingStorageLayer implements StorageLayer {
    protected final StorageLayer delegate;

    protected ForwardingStorageLayer(StorageLayer delegate) {
        this.delegate = delegate;
    }

    /**
     * Every file this layer creates or opens passes through here: a wrapper that changes only what
     * files do overrides this (with a {@link ForwardingSegmentFile}) and nothing else.
     */
    protected SegmentFile wrap(SegmentFile file) {
        return file;
    }

    @Override
    public SegmentFile create(Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions) throws IOException {
        return wrap(delegate.create(path, size, header, permissions));
    }

    @Override
    public boolean retire(Path segment, Path spare) throws IOException {
        return delegate.retire(segment, spare);
    }

    @Override
    public SegmentFile reuse(Path spare, Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions)
            throws IOException {
        return wrap(delegate.reuse(spare, path, size, header, permissions));
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
    public List<Path> listOther(Path directory) throws IOException {
        return delegate.listOther(directory);
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
}
