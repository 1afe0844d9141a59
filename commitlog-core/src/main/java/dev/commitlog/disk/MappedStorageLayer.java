package dev.commitlog.disk;

import static dev.commitlog.format.SegmentDescriptor.TEMP_SUFFIX;

import dev.commitlog.config.DiskAccessMode;
import dev.commitlog.config.SyncMode;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The production file layer. A new segment file is written full of zeros under a temporary name,
 * synced and renamed into place ({@link SegmentFileSpace} says how its space is made); writers
 * store into memory of their own and flush with {@code pwrite} and {@code fdatasync}
 * ({@link WritableSegmentFile}, proven by {@code StraceFlushTest}); readers map files read-only
 * ({@link MappedSegmentFile}).
 *
 * <p>Why zeros are written rather than a sparse file or fallocate: a flush of a written block
 * changes no file metadata, so {@code fdatasync} costs one data write and no journal commit, and the
 * zeros are the "nothing written yet" value that the frame format relies on after a crash.
 *
 * <p>Holds the writer memory this layer's segments reuse ({@link WriterMemory}): give each log
 * its own layer (as {@code CommitLogOptions.builder()} does) so that a closed log's memory goes
 * with it.
 *
 * <p>{@code commitlog_disk_access_mode} ({@link #withAccessMode}): with {@code direct}, the
 * segments this layer makes are written with {@code O_DIRECT} from block-aligned writer memory
 * ({@link DirectRangeWriter}). A file whose memory is a private mapping of it (an existing file
 * opened for writing: recovery's tail and the segment prepared before a close; or a new one when
 * the JVM refuses direct memory) is written through the page cache in either mode: a direct write
 * from a mapping of the very pages it overwrites would have the kernel drop page-cache pages that
 * the write itself is reading.
 */
public final class MappedStorageLayer implements StorageLayer {
    private final SegmentFileSpace space;
    /** Whether {@link #space} was given by the embedder; if not, {@link #withSyncMode} picks it. */
    private final boolean spaceGiven;
    private final WriterMemory writerMemory;
    private final DiskAccessMode accessMode;

    /** New segment files zero-filled, paced or not as the log's sync mode suits ({@link #withSyncMode}). */
    public MappedStorageLayer() {
        this(SegmentFileSpace.ZERO_FILL, false, new WriterMemory(), DiskAccessMode.STANDARD);
    }

    /** Experimental: new segment files made as {@code space} says, whatever the sync mode (a benchmark column compares them). */
    public MappedStorageLayer(SegmentFileSpace space) {
        this(space, true, new WriterMemory(), DiskAccessMode.STANDARD);
    }

    MappedStorageLayer(SegmentFileSpace space, WriterMemory writerMemory) {
        this(space, true, writerMemory, DiskAccessMode.STANDARD);
    }

    private MappedStorageLayer(SegmentFileSpace space, boolean spaceGiven, WriterMemory writerMemory, DiskAccessMode accessMode) {
        this.space = space;
        this.spaceGiven = spaceGiven;
        this.writerMemory = writerMemory;
        this.accessMode = accessMode;
    }

    /**
     * This layer, or one like it whose new segment files get their zeros as {@code mode} suits,
     * unless a space was given: paced ({@link SegmentFileSpace#ZERO_FILL}) where an append waits
     * for a flush, which a burst of zeros' writeback would delay; in one go
     * ({@link SegmentFileSpace#ZERO_FILL_UNPACED}) for Periodic, whose appends wait for no flush
     * but do wait for the next segment once they fill the current one, and paced zeros make that
     * wait a device-speed one (docs/benchmarks.md, "Paced zeros and Periodic").
     */
    public MappedStorageLayer withSyncMode(SyncMode mode) {
        SegmentFileSpace suited = mode == SyncMode.PERIODIC ? SegmentFileSpace.ZERO_FILL_UNPACED : SegmentFileSpace.ZERO_FILL;
        return spaceGiven || suited == space ? this : new MappedStorageLayer(suited, false, writerMemory, accessMode);
    }

    /**
     * This layer, or one like it (the same new-file space, writer memory of its own) whose
     * segments are written as {@code mode} says: how {@code CommitLog.open} applies
     * {@code commitlog_disk_access_mode} to the production layer.
     */
    public MappedStorageLayer withAccessMode(DiskAccessMode mode) {
        if (mode == accessMode) {
            return this;
        }
        WriterMemory memory = mode == DiskAccessMode.DIRECT ? WriterMemory.aligned(DirectFlushBlocks.BLOCK) : new WriterMemory();
        return new MappedStorageLayer(space, spaceGiven, memory, mode);
    }

    /** How this layer's new segment files get their zeros (or other space). */
    public SegmentFileSpace newFileSpace() {
        return space;
    }

    /** How this layer's new segments are written. */
    public DiskAccessMode accessMode() {
        return accessMode;
    }

    @Override
    public SegmentFile create(Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions) throws IOException {
        Path temp = path.resolveSibling(path.getFileName() + TEMP_SUFFIX);
        Files.deleteIfExists(temp);
        // Zeros written directly leave no page-cache copy of the file that each direct flush would
        // first have to drop (the kernel invalidates the cached pages a direct write covers).
        boolean zerosDirectly = accessMode == DiskAccessMode.DIRECT
                && (space == SegmentFileSpace.ZERO_FILL || space == SegmentFileSpace.ZERO_FILL_UNPACED);
        try (FileChannel channel = zerosDirectly ? DirectChannels.create(temp, permissions)
                : FileChannel.open(temp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                        PosixFilePermissions.asFileAttribute(permissions))) {
            // The create mode is filtered by the umask; set the permissions explicitly as well.
            Files.setPosixFilePermissions(temp, permissions);
            if (zerosDirectly) {
                DirectChannels.writeZeros(channel, size, header);
            } else {
                space.prepare(channel, temp, size);
                channel.write(header.duplicate().clear(), 0);
            }
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(temp);
            throw e;
        }
        Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE);
        syncDirectory(path.getParent());
        return writableNew(path, size, header, false);
    }

    @Override
    public boolean retire(Path segment, Path spare) throws IOException {
        Files.move(segment, spare, StandardCopyOption.ATOMIC_MOVE);
        return true;
    }

    /**
     * Writes the new header and the zero length word after it with one {@code pwrite} and
     * {@code fdatasync} under the spare's name, then renames: a crash before the rename leaves a
     * spare (recovery keeps or deletes it), never a segment whose header disagrees with its name.
     */
    @Override
    public SegmentFile reuse(Path spare, Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions)
            throws IOException {
        if (Files.size(spare) != size) {
            Files.delete(spare);
            return create(path, size, header, permissions);
        }
        try (FileChannel channel = FileChannel.open(spare, StandardOpenOption.WRITE)) {
            ByteBuffer start = ByteBuffer.allocate(header.capacity() + Long.BYTES);
            start.put(header.duplicate().clear()).clear();
            while (start.hasRemaining()) {
                channel.write(start, start.position());
            }
            channel.force(false);
        }
        Files.setPosixFilePermissions(spare, permissions);
        Files.move(spare, path, StandardCopyOption.ATOMIC_MOVE);
        syncDirectory(path.getParent());
        return writableNew(path, size, header, true);
    }

    /**
     * The writable file of a segment just made at {@code path}: writer memory holding
     * {@code header} and then zeros, whatever the file holds past the header. When the JVM has no
     * direct memory to give, a private mapping of the file instead, as for an existing file, zeroed
     * past the header if the file may hold a former life's bytes there.
     */
    private SegmentFile writableNew(Path path, int size, ByteBuffer header, boolean mayHoldStaleBytes) throws IOException {
        ByteBuffer memory = writerMemory.take(size);
        if (memory == null) {
            SegmentFile file = open(path, true);
            if (mayHoldStaleBytes) {
                ZeroFill.from(file, header.capacity());
            }
            return file;
        }
        memory.put(0, header.duplicate().clear(), 0, header.capacity());
        try {
            if (accessMode == DiskAccessMode.STANDARD) {
                return new WritableSegmentFile(path, memory, header.capacity(), openChannel(path, true), writerMemory);
            }
            FileChannel channel = DirectChannels.open(path);
            FileChannel pageCache = null;
            try {
                pageCache = openChannel(path, true);
                RangeWriter writer = new DirectRangeWriter(channel, pageCache, memory);
                return new WritableSegmentFile(path, memory, header.capacity(), channel, writerMemory, writer);
            } catch (IOException | RuntimeException e) {
                channel.close();
                if (pageCache != null) {
                    pageCache.close();
                }
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            writerMemory.release(memory, header.capacity());
            throw e;
        }
    }

    @Override
    public SegmentFile open(Path path, boolean writable) throws IOException {
        FileChannel channel = openChannel(path, writable);
        try {
            long size = channel.size();
            if (size > Integer.MAX_VALUE) {
                throw new IOException(path + " is " + size + " bytes; segments are at most 2 GiB");
            }
            if (!writable) {
                MappedByteBuffer buffer = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
                channel.close();
                return new MappedSegmentFile(path, buffer);
            }
            // An existing file's bytes, for recovery's tail or a cut: a private mapping loads them
            // as they are touched, where a copy would read every segment recovery only syncs.
            MappedByteBuffer memory = channel.map(FileChannel.MapMode.PRIVATE, 0, size);
            return new WritableSegmentFile(path, memory, (int) size, channel, null);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private static FileChannel openChannel(Path path, boolean writable) throws IOException {
        FileChannel channel = FileChannel.open(path, writable
                ? Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE)
                : Set.of(StandardOpenOption.READ));
        UninterruptibleChannels.make(channel);
        return channel;
    }

    @Override
    public List<Path> list(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            List<Path> result = new ArrayList<>();
            files.filter(Files::isRegularFile).forEach(result::add);
            return result;
        }
    }

    @Override
    public List<Path> listOther(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            List<Path> result = new ArrayList<>();
            // A segment discarded (deleted, or renamed to a spare) after the listing is not a
            // regular file any more, nor anything else: only an entry that still exists counts.
            files.filter(file -> !Files.isRegularFile(file) && Files.exists(file, LinkOption.NOFOLLOW_LINKS)).forEach(result::add);
            return result;
        }
    }

    @Override
    public long size(Path path) throws IOException {
        return Files.size(path);
    }

    @Override
    public void delete(Path path) throws IOException {
        Files.deleteIfExists(path);
    }

    @Override
    public void syncDirectory(Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // The creation already failed; the caller hears about that failure, not this one.
        }
    }
}
