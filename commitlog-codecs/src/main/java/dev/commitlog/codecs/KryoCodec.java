package dev.commitlog.codecs;

import com.esotericsoftware.kryo.Kryo;
import dev.commitlog.codec.RecordCodec;
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
 * <p>Needs {@code com.esotericsoftware:kryo}; the factories say so if it is missing. The Kryo calls
 * live in {@link KryoCoder}, so that this class links without Kryo (see {@link OptionalLibrary}).
 *
 * @param <T> the record type
 */
public final class KryoCodec<T> implements RecordCodec<T> {
    private final String name;
    private final ToIntFunction<T> bound;
    private final KryoCoder<T> coder;

    private KryoCodec(String name, Supplier<Kryo> kryos, Class<T> type, ToIntFunction<T> bound) {
        this.name = Objects.requireNonNull(name, "name");
        this.bound = bound;
        this.coder = new KryoCoder<>(name, Objects.requireNonNull(kryos, "kryos"), Objects.requireNonNull(type, "type"));
    }

    /**
     * Writes in place: {@code bound} gives an upper bound of each record's encoded size.
     *
     * @throws IllegalStateException if Kryo is not on the class path
     */
    public static <T> KryoCodec<T> bounded(Supplier<Kryo> kryos, Class<T> type, ToIntFunction<T> bound) {
        OptionalLibrary.KRYO.require("KryoCodec");
        return new KryoCodec<>("kryo", kryos, type, Objects.requireNonNull(bound, "bound"));
    }

    /**
     * No bound: the log stages each record and copies it in.
     *
     * @throws IllegalStateException if Kryo is not on the class path
     */
    public static <T> KryoCodec<T> unbounded(Supplier<Kryo> kryos, Class<T> type) {
        OptionalLibrary.KRYO.require("KryoCodec");
        return new KryoCodec<>("kryo-staged", kryos, type, null);
    }

    @Override
    public int maxEncodedLength(T record) {
        return bound == null ? UNKNOWN_LENGTH : bound.applyAsInt(record);
    }

    @Override
    public void encode(T record, ByteBuffer target) {
        coder.encode(record, target);
    }

    @Override
    public T decode(ByteBuffer source) {
        return coder.decode(source);
    }

    @Override
    public String toString() {
        return name;
    }
}
