package dev.commitlog.lifecycle;

import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.replay.SegmentRef;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentHeaderException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;

/** Reads the header of a segment file found in the directory. */
final class SegmentHeaders {
    private SegmentHeaders() {
    }

    /**
     * The file's header, or null when it is damaged (such files are left for an operator to
     * inspect) or was deleted since the directory was listed.
     */
    static SegmentHeader read(StorageLayer storage, SegmentRef ref) throws IOException {
        try (SegmentFile file = storage.open(ref.path(), false)) {
            return SegmentHeader.decode(file.buffer(), ref.id(), file.size());
        } catch (SegmentHeaderException | NoSuchFileException e) {
            return null;
        }
    }
}
