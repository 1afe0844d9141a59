package dev.commitlog.codecs;

import dev.commitlog.codec.RecordCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.core.buffer.ByteBufferInput;
import org.msgpack.core.buffer.MessageBuffer;
import org.msgpack.core.buffer.MessageBufferOutput;

/**
 * A {@link RecordCodec} in MessagePack through {@code msgpack-core}, with a {@link MsgpackSchema}
 * per type. With a bound, the packer writes in place: its output is the claimed region of the mapped
 * segment itself (no copy); msgpack-core wraps that region in one {@link MessageBuffer} per record.
 * One packer and one unpacker per thread, reset per record. Decoding reads the mapped frame directly.
 *
 * @param <T> the record type
 */
public final class MsgpackCodec<T> implements RecordCodec<T> {
    /**
     * Claimed beyond the schema's bound: msgpack-core asks for a new buffer when a write would
     * exactly fill the current one, so the region must never end exactly at the last byte.
     */
    static final int SLACK = 8;

    private final String name;
    private final MsgpackSchema<T> schema;
    private final ThreadLocal<Packing> packers = ThreadLocal.withInitial(Packing::new);
    private final ThreadLocal<Unpacking> unpackers = ThreadLocal.withInitial(Unpacking::new);

    public MsgpackCodec(MsgpackSchema<T> schema, String name) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.name = Objects.requireNonNull(name, "name");
    }

    @Override
    public int maxEncodedLength(T record) {
        int bound = schema.maxPackedLength(record);
        return bound == UNKNOWN_LENGTH ? UNKNOWN_LENGTH : bound + SLACK;
    }

    @Override
    public void encode(T record, ByteBuffer target) {
        Packing packing = packers.get();
        packing.output.target = target;
        try {
            schema.pack(record, packing.packer);
            packing.packer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(name + " could not encode a record", e);
        } finally {
            packing.output.target = null;
        }
    }

    @Override
    public T decode(ByteBuffer source) {
        Unpacking unpacking = unpackers.get();
        try {
            unpacking.input.reset(source);
            unpacking.unpacker.reset(unpacking.input);
            return schema.unpack(unpacking.unpacker);
        } catch (IOException e) {
            throw new UncheckedIOException(name + " could not decode a record", e);
        }
    }

    @Override
    public String toString() {
        return name;
    }

    /** One thread's packer, writing into whatever region {@link RegionOutput#target} points at. */
    private static final class Packing {
        final RegionOutput output = new RegionOutput();
        final MessagePacker packer = MessagePack.newDefaultPacker(output);
    }

    private static final class Unpacking {
        final ByteBufferInput input = new ByteBufferInput(ByteBuffer.allocate(0));
        final MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(input);
    }

    /** Hands the packer the rest of the target region as its buffer, and moves the target's position as the packer flushes. */
    private static final class RegionOutput implements MessageBufferOutput {
        ByteBuffer target;

        @Override
        public MessageBuffer next(int minimumSize) {
            if (target.remaining() < minimumSize) {
                throw new BufferOverflowException();
            }
            return MessageBuffer.wrap(target);
        }

        @Override
        public void writeBuffer(int length) {
            target.position(target.position() + length);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            target.put(bytes, offset, length);
        }

        @Override
        public void add(byte[] bytes, int offset, int length) {
            target.put(bytes, offset, length);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
