package dev.commitlog.disk;

import static dev.commitlog.format.SegmentDescriptor.TEMP_SUFFIX;

import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
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
 * The production file layer: segment files are written full of zeros when created, then mapped
 * with {@link FileChannel#map} (copy-on-write when writable); a flush is {@code pwrite} of the new
 * bytes and {@code fdatasync} (proven by {@code StraceFlushTest}; see {@link MappedSegmentFile}).
 *
 * <p>Why zeros are written rather than a sparse file or fallocate: a flush of a written block
 * changes no file metadata, so {@code fdatasync} costs one data write and no journal commit, and the
 * zeros are the "nothing written yet" value that the frame format relies on.
 */
public final class MappedStorageLayer implements StorageLayer {
    private static final int ZERO_CHUNK = 1 << 20;

    @Override
    public SegmentFile create(Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions) throws IOException {
        Path temp = path.resolveSibling(path.getFileName() + TEMP_SUFFIX);
        Files.deleteIfExists(temp);
        try (FileChannel channel = FileChannel.open(temp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(permissions))) {
            // The create mode is filtered by the umask; set the permissions explicitly as well.
            Files.setPosixFilePermissions(temp, permissions);
            ByteBuffer zeros = ByteBuffer.allocateDirect(Math.min(ZERO_CHUNK, size));
            for (long written = 0; written < size; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), size - written));
                written += channel.write(zeros, written);
            }
            channel.write(header.duplicate().clear(), 0);
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(temp);
            throw e;
        }
        Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE);
        syncDirectory(path.getParent());
        return open(path, true);
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
        return open(path, true);
    }

    @Override
    public SegmentFile open(Path path, boolean writable) throws IOException {
        Set<StandardOpenOption> options = writable
                ? Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE)
                : Set.of(StandardOpenOption.READ);
        FileChannel channel = FileChannel.open(path, options);
        UninterruptibleChannels.make(channel);
        try {
            long size = channel.size();
            if (size > Integer.MAX_VALUE) {
                throw new IOException(path + " is " + size + " bytes; segments are at most 2 GiB");
            }
            // Writable files are mapped copy-on-write; see MappedSegmentFile for why.
            MappedByteBuffer buffer = channel.map(writable ? FileChannel.MapMode.PRIVATE : FileChannel.MapMode.READ_ONLY, 0, size);
            if (!writable) {
                channel.close();
            }
            return new MappedSegmentFile(path, buffer, writable ? channel : null);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
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
            files.filter(file -> !Files.isRegularFile(file)).forEach(result::add);
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
