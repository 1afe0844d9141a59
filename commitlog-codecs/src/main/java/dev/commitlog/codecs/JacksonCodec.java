package dev.commitlog.codecs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import dev.commitlog.codec.RecordCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A {@link RecordCodec} over a Jackson {@link ObjectMapper}: JSON, CBOR or Smile, for any type the
 * mapper can bind. Jackson cannot say how long an encoding will be, so this codec returns
 * {@link RecordCodec#UNKNOWN_LENGTH}: the log encodes into its per-thread staging buffer and copies
 * the result into the claim (one copy per record; the encoding benchmark measures it). The
 * generator itself also buffers before writing to the stream. Decoding reads the mapped frame
 * through a stream, with no copy of the frame. Jackson allocates a generator or parser per record.
 *
 * <p>Needs {@code jackson-databind}, plus {@code jackson-dataformat-cbor} or
 * {@code jackson-dataformat-smile} for those formats.
 *
 * @param <T> the record type
 */
public final class JacksonCodec<T> implements RecordCodec<T> {
    private final String name;
    private final ObjectWriter writer;
    private final ObjectReader reader;
    private final ThreadLocal<ByteBufferStreams.Output> outputs = ThreadLocal.withInitial(ByteBufferStreams.Output::new);
    private final ThreadLocal<ByteBufferStreams.Input> inputs = ThreadLocal.withInitial(ByteBufferStreams.Input::new);

    public JacksonCodec(String name, ObjectMapper mapper, Class<T> type) {
        this.name = Objects.requireNonNull(name, "name");
        this.writer = mapper.writerFor(type);
        this.reader = mapper.readerFor(type);
    }

    /** JSON through a plain {@link ObjectMapper}. */
    public static <T> JacksonCodec<T> json(Class<T> type) {
        return new JacksonCodec<>("jackson-json", new ObjectMapper(), type);
    }

    /** CBOR (RFC 8949) through {@code jackson-dataformat-cbor}. */
    public static <T> JacksonCodec<T> cbor(Class<T> type) {
        return new JacksonCodec<>("jackson-cbor", new CBORMapper(), type);
    }

    /** Smile, Jackson's binary JSON, through {@code jackson-dataformat-smile}. */
    public static <T> JacksonCodec<T> smile(Class<T> type) {
        return new JacksonCodec<>("jackson-smile", new SmileMapper(), type);
    }

    @Override
    public int maxEncodedLength(T record) {
        return UNKNOWN_LENGTH;
    }

    @Override
    public void encode(T record, ByteBuffer target) {
        ByteBufferStreams.Output output = outputs.get().pointAt(target);
        try {
            writer.writeValue(output, record);
        } catch (IOException | RuntimeException e) {
            if (output.overflowed) {
                throw new BufferOverflowException(); // the log grows its staging buffer and retries
            }
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    @Override
    public T decode(ByteBuffer source) {
        try {
            if (source.hasArray()) {
                return reader.readValue(source.array(), source.arrayOffset() + source.position(), source.remaining());
            }
            return reader.readValue(inputs.get().pointAt(source));
        } catch (IOException e) {
            throw new UncheckedIOException(name + " could not decode a record", e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
