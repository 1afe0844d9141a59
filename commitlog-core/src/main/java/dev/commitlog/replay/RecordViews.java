package dev.commitlog.replay;

import java.nio.ByteBuffer;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.VanillaBytes;

/** Re-points the reusable record views (replay and tailer) at one record's payload, allocating nothing. */
public final class RecordViews {
    private RecordViews() {
    }

    /** {@code view}'s position becomes the payload's first byte, its limit just past the last. */
    public static void point(ByteBuffer view, int payloadOffset, int payloadLength) {
        view.limit(payloadOffset + payloadLength).position(payloadOffset);
    }

    /** {@code view} reads the payload, from {@code readPosition()} to {@code readLimit()}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static void point(VanillaBytes<Void> view, BytesStore<?, ?> segmentStore, int payloadOffset, int payloadLength) {
        view.bytesStore((BytesStore) segmentStore, payloadOffset, payloadLength);
        view.readLimit(payloadOffset + payloadLength);
        view.readPosition(payloadOffset);
    }
}
