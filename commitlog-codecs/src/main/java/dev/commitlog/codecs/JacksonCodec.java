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
 * {@code jackson-dataformat-smile} for those formats only: {@link #json} works without them, and a
 * factory whose jar is missing says which one (see {@link OptionalLibrary}).
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

    /**
     * JSON through a plain {@link ObjectMapper}: needs {@code jackson-databind} only.
     *
     * @throws IllegalStateException if {@code jackson-databind} is not on the class path
     */
    public static <T> JacksonCodec<T> json(Class<T> type) {
        OptionalLibrary.JACKSON_DATABIND.require("JacksonCodec.json");
        return new JacksonCodec<>("jackson-json", new ObjectMapper(), type);
    }

    /**
     * CBOR (RFC 8949) through {@code jackson-dataformat-cbor}.
     *
     * @throws IllegalStateException if {@code jackson-databind} or {@code jackson-dataformat-cbor} is not on the class path
     */
    public static <T> JacksonCodec<T> cbor(Class<T> type) {
        OptionalLibrary.JACKSON_DATABIND.require("JacksonCodec.cbor");
        OptionalLibrary.JACKSON_CBOR.require("JacksonCodec.cbor");
        return new JacksonCodec<>("jackson-cbor", Cbor.mapper(), type);
    }

    /**
     * Smile, Jackson's binary JSON, through {@code jackson-dataformat-smile}.
     *
     * @throws IllegalStateException if {@code jackson-databind} or {@code jackson-dataformat-smile} is not on the class path
     */
    public static <T> JacksonCodec<T> smile(Class<T> type) {
        OptionalLibrary.JACKSON_DATABIND.require("JacksonCodec.smile");
        OptionalLibrary.JACKSON_SMILE.require("JacksonCodec.smile");
        return new JacksonCodec<>("jackson-smile", Smile.mapper(), type);
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

    /*
     * One class per binary format, loaded only when its factory runs: passing a CBORMapper where an
     * ObjectMapper is expected makes the JVM load CBORMapper when it links the class that does it,
     * so if JacksonCodec did it, even json() would need the CBOR jar.
     */

    private static final class Cbor {
        static ObjectMapper mapper() {
            return new CBORMapper();
        }
    }

    private static final class Smile {
        static ObjectMapper mapper() {
            return new SmileMapper();
        }
    }
}
