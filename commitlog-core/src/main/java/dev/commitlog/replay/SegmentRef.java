package dev.commitlog.replay;

import dev.commitlog.segment.SegmentDescriptor;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A segment file found in the log directory: its id (from the name) and path. */
public record SegmentRef(long id, Path path) {

    /** The segment files in {@code directory}, oldest first. */
    public static List<SegmentRef> list(StorageLayer storage, Path directory) throws IOException {
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
}
