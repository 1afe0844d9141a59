package dev.commitlog.codec;

import java.nio.ByteBuffer;
import net.openhft.chronicle.bytes.Bytes;

/**
 * A {@link RecordCodec} written against Chronicle {@code Bytes}: the log hands it the claimed
 * segment memory as {@code Bytes} to encode into and the replayed frame as {@code Bytes} to decode
 * from, with no ByteBuffer in between. The ByteBuffer methods are there for callers outside the
 * log; their default implementations wrap the buffer in a {@code Bytes} (an allocation per call).
 *
 * <p>The same contract as {@link RecordCodec}, in Chronicle terms: {@link #encode(Object, Bytes)}
 * writes from {@code writePosition()} up to {@code writeLimit()} and leaves {@code writePosition()}
 * past the last byte; {@link #decode(Bytes)} reads from {@code readPosition()} to {@code readLimit()}.
 *
 * @param <T> the record type
 */
public interface BytesRecordCodec<T> extends RecordCodec<T> {
    /** Writes {@code record} at {@code target}'s write position. */
    void encode(T record, Bytes<?> target);

    /** Reads one record from {@code source}'s read position to its read limit. */
    T decode(Bytes<?> source);

    @Override
    default void encode(T record, ByteBuffer target) {
        Bytes<ByteBuffer> bytes = Bytes.wrapForWrite(target);
        int start = target.position();
        bytes.writeLimit(target.limit());
        bytes.writePosition(start);
        encode(record, bytes);
        target.position((int) bytes.writePosition());
    }

    @Override
    default T decode(ByteBuffer source) {
        Bytes<ByteBuffer> bytes = Bytes.wrapForRead(source);
        bytes.readLimit(source.limit());
        bytes.readPosition(source.position());
        return decode(bytes);
    }
}
