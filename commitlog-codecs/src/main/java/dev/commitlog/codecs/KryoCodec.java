package dev.commitlog.codecs;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.ByteBufferInput;
import com.esotericsoftware.kryo.io.ByteBufferOutput;
import com.esotericsoftware.kryo.io.KryoBufferOverflowException;
import dev.commitlog.codec.RecordCodec;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * A {@link RecordCodec} through Kryo 5, one {@link Kryo} per thread (Kryo is not thread-safe), made
 * by the caller's factory (which registers the classes). With a bound function, Kryo writes in place
 * into the claimed region of the mapped segment; without one the codec returns
 * {@link RecordCodec#UNKNOWN_LENGTH} and the log stages and copies. Kryo's output treats the whole
 * capacity of its buffer as its own, so it gets a slice of the claimed region (one small ByteBuffer
 * object per record), which it cannot write past. Decoding reads the mapped frame directly.
 *
 * @param <T> the record type
 */
public final class KryoCodec<T> implements RecordCodec<T> {
    private final String name;
    private final Class<T> type;
    private final ToIntFunction<T> bound;
    private final ThreadLocal<PerThread> state;

    private KryoCodec(String name, Supplier<Kryo> kryos, Class<T> type, ToIntFunction<T> bound) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.bound = bound;
        Objects.requireNonNull(kryos, "kryos");
        this.state = ThreadLocal.withInitial(() -> new PerThread(kryos.get()));
    }

    /** Writes in place: {@code bound} gives an upper bound of each record's encoded size. */
    public static <T> KryoCodec<T> bounded(Supplier<Kryo> kryos, Class<T> type, ToIntFunction<T> bound) {
        return new KryoCodec<>("kryo", kryos, type, Objects.requireNonNull(bound, "bound"));
    }

    /** No bound: the log stages each record and copies it in. */
    public static <T> KryoCodec<T> unbounded(Supplier<Kryo> kryos, Class<T> type) {
        return new KryoCodec<>("kryo-staged", kryos, type, null);
    }

    @Override
    public int maxEncodedLength(T record) {
        return bound == null ? UNKNOWN_LENGTH : bound.applyAsInt(record);
    }

    @Override
    public void encode(T record, ByteBuffer target) {
        PerThread perThread = state.get();
        ByteBuffer region = target.slice();
        perThread.output.setBuffer(region, region.capacity());
        try {
            perThread.kryo.writeObject(perThread.output, record);
        } catch (KryoBufferOverflowException e) {
            throw new BufferOverflowException();
        }
        target.position(target.position() + perThread.output.position());
    }

    @Override
    public T decode(ByteBuffer source) {
        PerThread perThread = state.get();
        perThread.input.setBuffer(source);
        try {
            return perThread.kryo.readObject(perThread.input, type);
        } catch (KryoException e) {
            throw new IllegalStateException(name + " could not decode a record: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return name;
    }

    private static final class PerThread {
        final Kryo kryo;
        final ByteBufferOutput output = new ByteBufferOutput(ByteBuffer.allocate(0));
        final ByteBufferInput input = new ByteBufferInput(ByteBuffer.allocate(0));

        PerThread(Kryo kryo) {
            this.kryo = kryo;
        }
    }
}
