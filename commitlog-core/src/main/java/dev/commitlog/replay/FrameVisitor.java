package dev.commitlog.replay;

import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentRef;
import java.nio.ByteBuffer;

/** Receives each verified record that a {@link LogWalker} passes. */
@FunctionalInterface
public interface FrameVisitor {
    /**
     * @param position      the record's log position
     * @param segmentBytes  the whole segment, mapped (absolute offsets; do not keep it)
     * @param payloadOffset where the payload starts in {@code segmentBytes}
     * @param payloadLength its length
     */
    void onRecord(long position, ByteBuffer segmentBytes, int payloadOffset, int payloadLength);

    /** Told when the walk moves to a new segment, before its first record. */
    default void onSegment(SegmentRef ref, SegmentHeader header, ByteBuffer segmentBytes) {
    }
}
