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
 * <p>Needs {@code org.msgpack:msgpack-core}; the constructor says so if it is missing. The msgpack
 * calls live in the per-thread classes, so that this class links without it (see {@link OptionalLibrary}).
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
    private final ThreadLocal<Packing> packers;
    private final ThreadLocal<Unpacking> unpackers;

    /** @throws IllegalStateException if msgpack-core is not on the class path */
    public MsgpackCodec(MsgpackSchema<T> schema, String name) {
        OptionalLibrary.MSGPACK.require("MsgpackCodec");
        this.schema = Objects.requireNonNull(schema, "schema");
        this.name = Objects.requireNonNull(name, "name");
        this.packers = ThreadLocal.withInitial(Packing::new);
        this.unpackers = ThreadLocal.withInitial(Unpacking::new);
    }

    @Override
    public int maxEncodedLength(T record) {
        int bound = schema.maxPackedLength(record);
        return bound == UNKNOWN_LENGTH ? UNKNOWN_LENGTH : bound + SLACK;
    }

    @Override
    public void encode(T record, ByteBuffer target) {
        try {
            packers.get().pack(schema, record, target);
        } catch (IOException e) {
            throw new UncheckedIOException(name + " could not encode a record", e);
        }
    }

    @Override
    public T decode(ByteBuffer source) {
        try {
            return unpackers.get().unpack(schema, source);
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

        <T> void pack(MsgpackSchema<T> schema, T record, ByteBuffer target) throws IOException {
            output.target = target;
            try {
                schema.pack(record, packer);
                packer.flush();
            } finally {
                output.target = null;
            }
        }
    }

    /** One thread's unpacker, reading whatever frame {@link #unpack} is given. */
    private static final class Unpacking {
        final ByteBufferInput input = new ByteBufferInput(ByteBuffer.allocate(0));
        final MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(input);

        <T> T unpack(MsgpackSchema<T> schema, ByteBuffer source) throws IOException {
            input.reset(source);
            unpacker.reset(input);
            return schema.unpack(unpacker);
        }
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
