package dev.commitlog.codec;

import java.nio.ByteBuffer;

/**
 * Turns records of type {@code T} into log payloads and back, for
 * {@code CommitLog.append(T, RecordCodec)}, {@code appendAsync(T, RecordCodec, AppendCallback)},
 * {@code replay(long, RecordCodec, TypedRecordHandler)} and {@code tailer(long, RecordCodec)}.
 *
 * <p>Encoding happens in place: the log claims {@link #maxEncodedLength} bytes in the mapped
 * segment and hands {@link #encode} a buffer over exactly that space, so nothing is copied. A codec
 * that cannot know a bound returns {@link #UNKNOWN_LENGTH}; the log then encodes into a per-thread
 * staging buffer (grown on overflow, up to {@code max_record_size}) and copies the result in: one
 * copy per record, and no allocation once the buffer has grown.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>{@link #maxEncodedLength} is exact or an upper bound. When fewer bytes are written, the
 *       frame records the true length and the rest of the claim becomes an aborted frame that
 *       readers skip (see docs/format.md), so a loose bound costs segment space, never data.</li>
 *   <li>{@link #encode} writes from the target's position, only up to its limit, and leaves the
 *       position just past the last byte it wrote. Writing past the limit must throw
 *       {@link java.nio.BufferOverflowException} (relative {@code put}s do). Any exception aborts the
 *       claim: nothing is logged, the log carries on, and the caller gets an exception naming the
 *       codec. The target's byte order is big-endian on entry; the codec may change it.</li>
 *   <li>{@link #decode} reads from the source's position to its limit. The source is a read-only
 *       view of the mapped segment (big-endian on entry), valid only during the call: a decoded
 *       record must not keep it. A codec may return the same mutable instance from every call
 *       (nothing allocated per record); it then says so, and its users copy what they keep.</li>
 *   <li>Encoding may run on many threads at once; decoding runs on the replaying or tailing thread.</li>
 * </ul>
 *
 * @param <T> the record type
 */
public interface RecordCodec<T> {
    /** Returned by {@link #maxEncodedLength} when the codec cannot bound the size: the log stages and copies. */
    int UNKNOWN_LENGTH = -1;

    /** The exact encoded size of {@code record}, an upper bound of it, or {@link #UNKNOWN_LENGTH}. */
    int maxEncodedLength(T record);

    /** Writes {@code record} at {@code target}'s position, leaving the position past the last byte written. */
    void encode(T record, ByteBuffer target);

    /** Reads one record from {@code source}'s position to its limit. */
    T decode(ByteBuffer source);
}
