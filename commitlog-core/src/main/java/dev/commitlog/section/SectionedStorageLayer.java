package dev.commitlog.section;

import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.disk.WriterMemory;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.ForwardingStorageLayer;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The storage layer every log runs over when it reads or writes sections: the files it creates or
 * reuses are sectioned (format version 3) when compression or encryption is configured, and the
 * files it opens are read as what their header says: a version 3 file through a plain image of its
 * sections, any other as it is. So a log whose settings changed reads its older segments of the
 * other kind until they are discarded, and the layer below (the real disk, a test's simulated one)
 * sees only stored bytes.
 *
 * <p>Thread-safe: it holds the settings and a pool of plain memory (itself thread-safe); each file
 * gets its own encoder.
 */
public final class SectionedStorageLayer extends ForwardingStorageLayer {
    private final Compression compression;
    private final int level;
    private final Encryption encryption;
    private final KeyProvider keys;
    /**
     * The plain memory of the sectioned files this layer opens for writing, handed from segment to
     * segment as the production layer hands its writer memory: a new 32 MiB buffer per segment
     * cost its page faults and zeroing (about a third of the CPU LZ4 itself takes per record).
     */
    private final WriterMemory images = new WriterMemory();

    /**
     * @param delegate    the layer that stores the files
     * @param compression the codec new segments' sections use
     * @param level       the zstd level (ignored otherwise)
     * @param encryption  the cipher new segments' sections use
     * @param keys        the keys (needed with encryption, and to read encrypted segments); may be null
     */
    public SectionedStorageLayer(StorageLayer delegate, Compression compression, int level, Encryption encryption, KeyProvider keys) {
        super(delegate);
        this.compression = compression;
        this.level = level;
        this.encryption = encryption;
        this.keys = keys;
    }

    /** Whether new segments are sectioned. */
    public boolean writesSections() {
        return compression != Compression.NONE || encryption != Encryption.NONE;
    }

    @Override
    public SegmentFile create(Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions) throws IOException {
        if (!writesSections()) {
            return delegate.create(path, size, header, permissions);
        }
        return sectioned(delegate.create(path, size, sectionedHeader(header), permissions), size);
    }

    @Override
    public SegmentFile reuse(Path spare, Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions)
            throws IOException {
        if (!writesSections()) {
            return delegate.reuse(spare, path, size, header, permissions);
        }
        return sectioned(delegate.reuse(spare, path, size, sectionedHeader(header), permissions), size);
    }

    @Override
    public SegmentFile open(Path path, boolean writable) throws IOException {
        SegmentFile file = delegate.open(path, writable);
        if (!isSectioned(file)) {
            return file;
        }
        try {
            if (!writable) {
                return new SectionedReadFile(file, keys);
            }
            // An existing file goes on with its own kind; without sections configured, what recovery
            // writes into it (an end marker) is stored unencrypted and uncompressed.
            return new SectionedWriteFile(file, writesSections() ? encoder(file.size()) : plainEncoder(file.size()), keys, true, images);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    private SegmentFile sectioned(SegmentFile file, int size) throws IOException {
        try {
            return new SectionedWriteFile(file, encoder(size), keys, false, images);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    private SectionEncoder encoder(int size) {
        return new SectionEncoder(compression, level, encryption, encryption == Encryption.NONE ? null : keys, size);
    }

    private static SectionEncoder plainEncoder(int size) {
        return new SectionEncoder(Compression.NONE, 0, Encryption.NONE, null, size);
    }

    /** Whether a file's header says version 3 (a damaged or short header is read as it is, and reported by the walk). */
    static boolean isSectioned(SegmentFile file) {
        return file.size() >= SegmentDescriptor.SEGMENT_HEADER_LENGTH
                && file.buffer().duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(SegmentDescriptor.VERSION_OFFSET)
                == SegmentDescriptor.FORMAT_VERSION_SECTIONS;
    }

    /** A copy of {@code header} as version 3, its CRC recomputed. */
    static ByteBuffer sectionedHeader(ByteBuffer header) {
        ByteBuffer copy = ByteBuffer.allocate(header.remaining()).order(ByteOrder.LITTLE_ENDIAN);
        copy.put(0, header, header.position(), header.remaining());
        copy.putInt(SegmentDescriptor.VERSION_OFFSET, SegmentDescriptor.FORMAT_VERSION_SECTIONS);
        copy.putInt(SegmentDescriptor.HEADER_CRC_OFFSET, SectionedWriteFile.headerCrc(copy, new CRC32C()));
        return copy;
    }
}
