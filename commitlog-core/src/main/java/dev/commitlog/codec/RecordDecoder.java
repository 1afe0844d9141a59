package dev.commitlog.codec;

import dev.commitlog.BytesRecordHandler;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Decodes the frames a replay or a tailer hands out and passes the records on to a
 * {@link TypedRecordHandler}: the bridge between the log's {@code Bytes} frames and a
 * {@link RecordCodec}.
 *
 * <p>A {@link BytesRecordCodec} decodes from the frame's {@code Bytes} as it comes. Any other codec
 * gets a read-only {@link ByteBuffer} over the same mapped memory, made once per segment and
 * re-pointed at each record, so decoding reaches the codec with no copy and no allocation. When the
 * frame is not backed by a ByteBuffer (a file layer that is not mapped), the payload is copied into
 * a reused heap buffer instead.
 *
 * <p>One thread uses a decoder at a time (the replaying or tailing thread).
 *
 * @param <T> the record type
 */
public final class RecordDecoder<T> implements BytesRecordHandler {
    private final RecordCodec<T> codec;
    private final BytesRecordCodec<T> bytesCodec;
    private final TypedRecordHandler<T> handler;
    /** The segment buffer {@link #view} was made from. */
    private ByteBuffer viewSource;
    private ByteBuffer view;
    private ByteBuffer copy = ByteBuffer.allocate(0);

    public RecordDecoder(RecordCodec<T> codec, TypedRecordHandler<T> handler) {
        this.codec = Objects.requireNonNull(codec, "codec");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.bytesCodec = codec instanceof BytesRecordCodec<T> bytes ? bytes : null;
    }

    @Override
    public void onRecord(long position, Bytes<?> payload) {
        T record = bytesCodec != null ? bytesCodec.decode(payload) : codec.decode(viewOf(payload));
        handler.onRecord(position, record);
    }

    /** The payload as a read-only ByteBuffer, positioned at its first byte and limited to its end. */
    private ByteBuffer viewOf(Bytes<?> payload) {
        BytesStore<?, ?> store = payload.bytesStore();
        Object underlying = store == null ? null : store.underlyingObject();
        int start = (int) payload.readPosition();
        int end = (int) payload.readLimit();
        if (underlying instanceof ByteBuffer segment && store.start() == 0) {
            if (segment != viewSource) {
                view = segment.asReadOnlyBuffer(); // once per segment
                viewSource = segment;
            }
            view.order(ByteOrder.BIG_ENDIAN);
            view.limit(end).position(start);
            return view;
        }
        int length = end - start;
        if (copy.capacity() < length) {
            copy = ByteBuffer.allocate(Math.max(length, 2 * copy.capacity()));
        }
        copy.clear().limit(length);
        payload.read(start, copy.array(), 0, length); // absolute read: the payload's positions stay put
        return copy.order(ByteOrder.BIG_ENDIAN);
    }
}
