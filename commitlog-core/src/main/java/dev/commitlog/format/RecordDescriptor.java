package dev.commitlog.format;

/**
 * Layout of one frame in a segment. Every frame starts at an 8-byte aligned offset, so its length
 * word can never straddle a 512-byte sector and be torn (the etcd wal rule). Byte order is
 * little-endian. See {@code docs/format.md} for the grammar and a worked example.
 *
 * <pre>
 *   0               4               8                                8 + n        align8(8 + n)
 *   +---------------+---------------+--------------------------------+-------------+
 *   | length (i32)  | crc32c (i32)  | payload (n bytes)              | zero pad    |
 *   +---------------+---------------+--------------------------------+-------------+
 * </pre>
 *
 * <ul>
 *   <li>{@code length > 0}: a record; {@code length = 8 + n}, the frame without its padding.</li>
 *   <li>{@code length == 0}: nothing written here yet. Segments are zero-filled, and a writer
 *       publishes its length last with an ordered store, so a reader (the sync thread or replay)
 *       that reads 0 has reached the end of what is published.</li>
 *   <li>{@code length == END_OF_SEGMENT}: the segment is full; the next record is in the next
 *       segment. The marker carries a CRC like any frame, so a flipped length cannot fake it.</li>
 *   <li>{@code length < 0} otherwise: an aborted claim of {@code -length} bytes (header included)
 *       that holds no record; readers skip it.</li>
 * </ul>
 *
 * The CRC32C covers the segment's life salt (u32, format version 2 only), the frame's log position
 * (i64), its length word (i32) and the payload, in that order. The position makes a frame that is
 * copied, duplicated or moved to another place (a misdirected sector write) fail its checksum; the
 * salt, new in each life of a file, does the same for a frame left from an earlier life at the same
 * place (a recycled file's former records, records cut off after a crash).
 */
public final class RecordDescriptor {
    /** Bytes before the payload: the length word and the checksum. */
    public static final int FRAME_HEADER_LENGTH = 8;
    public static final int LENGTH_OFFSET = 0;
    public static final int CRC_OFFSET = 4;
    /** Every frame starts on this boundary. */
    public static final int ALIGNMENT = 8;
    /** The length word of the end-of-segment marker. */
    public static final int END_OF_SEGMENT = Integer.MIN_VALUE;
    /** The marker is a bare header: length word and CRC, no payload. */
    public static final int END_MARKER_LENGTH = FRAME_HEADER_LENGTH;

    private RecordDescriptor() {
    }

    /** The length word of a record frame carrying {@code payloadLength} bytes. */
    public static int frameLength(int payloadLength) {
        return FRAME_HEADER_LENGTH + payloadLength;
    }

    /** The space a frame with this length word occupies, padding included. */
    public static int alignedLength(int frameLength) {
        return (frameLength + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /** The space a record with this payload occupies, header and padding included. */
    public static int alignedFrameLength(int payloadLength) {
        return alignedLength(frameLength(payloadLength));
    }

    /** The length word that marks an aborted claim of {@code alignedLength} bytes. */
    public static int abortedLength(int alignedLength) {
        return -alignedLength;
    }

    public static boolean isRecord(int lengthWord) {
        return lengthWord > 0;
    }

    public static boolean isAborted(int lengthWord) {
        return lengthWord < 0 && lengthWord != END_OF_SEGMENT;
    }
}
