package dev.commitlog.lifecycle;

import java.nio.file.Path;

/**
 * A segment file that is complete (sealed with its end marker) and durable: nothing in it will
 * change again.
 *
 * @param id            the segment id (from its file name)
 * @param path          the file
 * @param startPosition the log position of its first byte (its base position)
 * @param endPosition   the log position just past it: the next segment's start
 */
public record CompletedSegment(long id, Path path, long startPosition, long endPosition) {
}
