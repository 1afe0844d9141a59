package dev.commitlog.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A segment file that passes every operation to another; a wrapper overrides only what it
 * changes. Every flush form is forwarded as the same form, so a wrapped file's own
 * {@code flushHeaderAndRange} is the one that runs.
 */
public abstract class ForwardingSegmentFile implements SegmentFile {
    protected final SegmentFile delegate;

    protected ForwardingSegmentFile(SegmentFile delegate) {
        this.delegate = delegate;
    }

    @Override
    public Path path() {
        return delegate.path();
    }

    @Override
    public int size() {
        return delegate.size();
    }

    @Override
    public ByteBuffer buffer() {
        return delegate.buffer();
    }

    @Override
    public void flush(int from, int to) throws IOException {
        delegate.flush(from, to);
    }

    @Override
    public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
        delegate.flushHeaderAndRange(headerLength, from, to);
    }

    @Override
    public boolean sectioned() {
        return delegate.sectioned();
    }

    @Override
    public long sectionRoom() {
        return delegate.sectionRoom();
    }

    @Override
    public void cutSections(int offset) throws IOException {
        delegate.cutSections(offset);
    }

    @Override
    public int sectionsEnd() {
        return delegate.sectionsEnd();
    }

    @Override
    public void readableTo(int end) throws IOException {
        delegate.readableTo(end);
    }

    @Override
    public String sectionDamageAt(int offset) {
        return delegate.sectionDamageAt(offset);
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
