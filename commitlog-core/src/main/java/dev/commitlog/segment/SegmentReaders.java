package dev.commitlog.segment;

import java.io.IOException;

/**
 * The readers of segment files in this process (random reads and tailers share one table of
 * mappings). A discarded file may become a spare, to be rewritten as a new segment, only while no
 * reader maps it: a tailer reads on through a segment discarded under it, and must find the bytes
 * it started on.
 */
public interface SegmentReaders {
    /** No reader: every action runs. */
    SegmentReaders NONE = (segmentId, action) -> {
        action.run();
        return true;
    };

    /**
     * Runs {@code action} if no mapping of segment {@code segmentId} exists, and keeps any from
     * being made while it runs; returns whether it ran.
     */
    boolean runIfUnmapped(long segmentId, FileAction action) throws IOException;

    /** A file operation. */
    @FunctionalInterface
    interface FileAction {
        void run() throws IOException;
    }
}
