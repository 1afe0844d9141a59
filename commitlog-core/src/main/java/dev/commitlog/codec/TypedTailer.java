package dev.commitlog.codec;

import dev.commitlog.LogTailer;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A {@link LogTailer} that decodes: each poll hands the records that became durable since the last
 * one, decoded by a {@link RecordCodec}, to a {@link TypedRecordHandler}. Get one from
 * {@code CommitLog.tailer(fromPosition, codec)}; it has the guarantees of {@link LogTailer}
 * (one thread at a time, durable records only, every frame verified, nothing allocated per record
 * beyond what the codec's decode allocates).
 *
 * @param <T> the record type
 */
public final class TypedTailer<T> implements AutoCloseable {
    private final LogTailer tailer;
    private final RecordCodec<T> codec;
    /** The decoder of the last poll, reused while the handler is the same object. */
    private RecordDecoder<T> decoder;
    private TypedRecordHandler<T> decoderHandler;

    public TypedTailer(LogTailer tailer, RecordCodec<T> codec) {
        this.tailer = Objects.requireNonNull(tailer, "tailer");
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    /** As {@link LogTailer#pollBytes(dev.commitlog.BytesRecordHandler, int)}, decoding each record. */
    public int poll(TypedRecordHandler<T> handler, int maxRecords) throws IOException {
        return tailer.pollBytes(decoderFor(handler), maxRecords);
    }

    /** As {@link LogTailer#pollBytes(dev.commitlog.BytesRecordHandler, int, long, TimeUnit)}, decoding each record. */
    public int poll(TypedRecordHandler<T> handler, int maxRecords, long timeout, TimeUnit unit) throws IOException, InterruptedException {
        return tailer.pollBytes(decoderFor(handler), maxRecords, timeout, unit);
    }

    /** As {@link LogTailer#position()}. */
    public long position() {
        return tailer.position();
    }

    /** Closes the underlying tailer. Idempotent. */
    @Override
    public void close() {
        tailer.close();
    }

    private RecordDecoder<T> decoderFor(TypedRecordHandler<T> handler) {
        if (handler != decoderHandler) {
            decoder = new RecordDecoder<>(codec, handler);
            decoderHandler = handler;
        }
        return decoder;
    }
}
