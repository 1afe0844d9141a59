package dev.commitlog;

import dev.commitlog.segment.Segment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.VanillaBytes;

/**
 * One appending thread's views for encoding records in place (see {@link CodecAppender}): a
 * duplicate of the current segment's buffer (made once per segment), a Chronicle {@code Bytes}
 * window re-pointed at each claim, and a staging buffer for codecs that cannot bound their size
 * (grown when a record does not fit, never shrunk). Nothing here is allocated per record.
 */
final class EncodeTargets {
    /** A staging buffer starts this big; doubled (up to max_record_size) when a record does not fit. */
    static final int INITIAL_STAGING = 4096;

    private final VanillaBytes<Void> bytes = VanillaBytes.vanillaBytes();
    private Segment viewSegment;
    private ByteBuffer view;
    private ByteBuffer staging;

    /** The segment's buffer with position and limit around {@code length} bytes at {@code offset}. */
    ByteBuffer buffer(Segment segment, int offset, int length) {
        ByteBuffer target = segmentView(segment);
        target.order(ByteOrder.BIG_ENDIAN);
        target.limit(offset + length).position(offset);
        return target;
    }

    /** The segment's buffer, for checksumming and zeroing what the codec wrote. */
    ByteBuffer segmentView(Segment segment) {
        if (segment != viewSegment) {
            view = segment.buffer().duplicate(); // once per segment
            viewSegment = segment;
        }
        return view;
    }

    /** The segment's memory as Bytes, writable from {@code offset} for {@code length} bytes. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    VanillaBytes<Void> bytes(Segment segment, long offset, int length) {
        BytesStore store = segment.memory();
        bytes.bytesStore(store, offset, length);
        bytes.writeLimit(offset + length);
        bytes.writePosition(offset);
        bytes.readPosition(offset);
        return bytes;
    }

    /** The staging buffer, cleared, with at least {@code capacity} bytes (its limit is {@code capacity}). */
    ByteBuffer staging(int capacity) {
        if (staging == null || staging.capacity() < capacity) {
            staging = ByteBuffer.allocate(capacity);
        }
        staging.clear().limit(capacity);
        return staging.order(ByteOrder.BIG_ENDIAN);
    }

    /** The capacity of the staging buffer, or 0 before the first staged record. */
    int stagingCapacity() {
        return staging == null ? 0 : staging.capacity();
    }
}
