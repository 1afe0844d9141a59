package dev.commitlog.section;

import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import net.openhft.chronicle.core.io.IOTools;

/**
 * A sectioned segment file opened read-only. Once a reader has called {@link #readableTo}, its
 * {@link #buffer()} is a plain image of the segment (the header as stored, each section's frames
 * at their own offsets, zeros past the last section that verified), which replay, tailers and
 * {@code readAt} read as they read a plain segment; the image is decoded as readers ask for more
 * (the segment still being written gains sections). Before that first call, {@link #buffer()} is
 * the stored file, whose first 64 bytes are the segment header: what the many readers of headers
 * alone (listings, recovery's checks, spares) read, without decoding anything or allocating the
 * image.
 *
 * <p>Assumptions and guarantees: readers of frames call {@link #readableTo} before they take
 * {@link #buffer()}. Any number of threads may read the image and call {@link #readableTo};
 * decoding takes this object's lock, the check before it only a volatile read. The image costs the
 * segment's size in direct memory while the file is open.
 */
final class SectionedReadFile implements SegmentFile {
    private final SegmentFile stored;
    private final KeyProvider keys;
    /** Null until the first {@link #readableTo}; volatile: published with its header. */
    private volatile ByteBuffer image;
    /** Made with the image, under this object's lock; volatile so that the check before the lock needs none. */
    private volatile SectionChain chain;
    private boolean closed;

    SectionedReadFile(SegmentFile stored, KeyProvider keys) {
        this.stored = stored;
        this.keys = keys;
    }

    @Override
    public int size() {
        return stored.size();
    }

    @Override
    public Path path() {
        return stored.path();
    }

    @Override
    public ByteBuffer buffer() {
        ByteBuffer decoded = image;
        return decoded != null ? decoded : stored.buffer();
    }

    @Override
    public boolean sectioned() {
        return true;
    }

    @Override
    public void readableTo(int end) throws IOException {
        SectionChain decoded = chain;
        if (decoded != null && decoded.logicalEnd() >= end) {
            return; // volatile read: the bytes below it are published
        }
        synchronized (this) {
            if (closed) {
                throw new IOException(path() + " is closed");
            }
            if (chain == null) {
                ByteBuffer made = ByteBuffer.allocateDirect(stored.size()); // zeroed by the JDK
                made.put(0, stored.buffer(), 0, SegmentDescriptor.SEGMENT_HEADER_LENGTH);
                chain = new SectionChain(stored, made, keys);
                image = made; // volatile store
            }
            chain.decodeTo(end);
        }
    }


    @Override
    public String sectionDamageAt(int offset) {
        SectionChain decoded = chain;
        if (decoded == null || decoded.logicalEnd() != offset) {
            return null;
        }
        synchronized (this) {
            return decoded.damageAt(offset);
        }
    }

    @Override
    public void flush(int from, int to) throws IOException {
        throw new IOException(path() + " is open read-only");
    }

    @Override
    public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
        throw new IOException(path() + " is open read-only");
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (chain != null) {
            chain.close();
        }
        stored.close();
        if (image != null) {
            IOTools.clean(image);
        }
    }

    @Override
    public String toString() {
        return stored.toString();
    }
}
