package dev.commitlog.segment;

import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A segment file found in the log directory: its id (from the name) and path. */
public record SegmentRef(long id, Path path) {

    /**
     * The segment files in {@code directory}, oldest first.
     *
     * @throws FileSystemException if an entry named like a segment file is not a regular file (a
     *                             directory, say): the log cannot be read, or grow, past it
     */
    public static List<SegmentRef> list(StorageLayer storage, Path directory) throws IOException {
        for (Path other : storage.listOther(directory)) {
            if (SegmentDescriptor.parseId(other.getFileName().toString()) >= 0) {
                throw new FileSystemException(other.toString(), null, "named like a segment file but not a regular file (a directory?); "
                        + "move it out of the log directory");
            }
        }
        List<SegmentRef> refs = new ArrayList<>();
        for (Path file : storage.list(directory)) {
            long id = SegmentDescriptor.parseId(file.getFileName().toString());
            if (id >= 0) {
                refs.add(new SegmentRef(id, file));
            }
        }
        refs.sort(Comparator.comparingLong(SegmentRef::id));
        return refs;
    }

    /**
     * The file's header, or null when it is damaged (such files are left for an operator to
     * inspect) or was deleted since the directory was listed.
     */
    public SegmentHeader readHeader(StorageLayer storage) throws IOException {
        try (SegmentFile file = storage.open(path, false)) {
            return SegmentHeader.decode(file.buffer(), id, file.size());
        } catch (SegmentHeaderException | NoSuchFileException e) {
            return null;
        }
    }
}
