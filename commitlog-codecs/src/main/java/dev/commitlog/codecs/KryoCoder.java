package dev.commitlog.codecs;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.ByteBufferInput;
import com.esotericsoftware.kryo.io.ByteBufferOutput;
import com.esotericsoftware.kryo.io.KryoBufferOverflowException;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.function.Supplier;

/** {@link KryoCodec}'s Kryo calls: one Kryo, output and input per thread, re-pointed per record. */
final class KryoCoder<T> {
    private final String name;
    private final Class<T> type;
    private final ThreadLocal<PerThread> state;

    KryoCoder(String name, Supplier<Kryo> kryos, Class<T> type) {
        this.name = name;
        this.type = type;
        this.state = ThreadLocal.withInitial(() -> new PerThread(kryos.get()));
    }

    void encode(T record, ByteBuffer target) {
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

    T decode(ByteBuffer source) {
        PerThread perThread = state.get();
        perThread.input.setBuffer(source);
        try {
            return perThread.kryo.readObject(perThread.input, type);
        } catch (KryoException e) {
            throw new IllegalStateException(name + " could not decode a record: " + e.getMessage(), e);
        }
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
