package dev.commitlog.codecs;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import dev.commitlog.codec.RecordCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A {@link RecordCodec} in protobuf's wire format, through {@code protobuf-java}: for generated
 * messages ({@link #of(Parser)}) or for plain types with a {@link ProtobufSchema}. Protobuf knows
 * the exact size first, so the log claims exactly that and the encoding is written in place into
 * the mapped segment by a {@link CodedOutputStream} over the claimed region (no copy). protobuf-java
 * makes one {@code CodedOutputStream} per record (it cannot be re-pointed at another ByteBuffer)
 * and one {@code CodedInputStream} per decode. Decoding reads the mapped frame directly.
 *
 * <p>Needs {@code com.google.protobuf:protobuf-java}; the factories say so if it is missing (see
 * {@link OptionalLibrary}).
 *
 * @param <T> the record type
 */
public final class ProtobufCodec<T> implements RecordCodec<T> {
    private final String name;
    private final ProtobufSchema<T> schema;

    private ProtobufCodec(String name, ProtobufSchema<T> schema) {
        this.name = name;
        this.schema = schema;
    }

    /**
     * For a plain type with a hand-written protobuf schema.
     *
     * @throws IllegalStateException if protobuf-java is not on the class path
     */
    public static <T> ProtobufCodec<T> of(ProtobufSchema<T> schema, String name) {
        OptionalLibrary.PROTOBUF.require("ProtobufCodec");
        return new ProtobufCodec<>(Objects.requireNonNull(name, "name"), Objects.requireNonNull(schema, "schema"));
    }

    /**
     * For a generated message (or any {@link MessageLite}), parsed back with its {@code parser()}.
     *
     * @throws IllegalStateException if protobuf-java is not on the class path
     */
    public static <M extends MessageLite> ProtobufCodec<M> of(Parser<M> parser) {
        OptionalLibrary.PROTOBUF.require("ProtobufCodec");
        Objects.requireNonNull(parser, "parser");
        return new ProtobufCodec<>("protobuf", new ProtobufSchema<>() {
            @Override
            public int serializedSize(M message) {
                return message.getSerializedSize();
            }

            @Override
            public void writeTo(M message, CodedOutputStream output) throws IOException {
                message.writeTo(output);
            }

            @Override
            public M readFrom(CodedInputStream input) throws InvalidProtocolBufferException {
                return parser.parseFrom(input);
            }
        });
    }

    @Override
    public int maxEncodedLength(T record) {
        return schema.serializedSize(record);
    }

    @Override
    public void encode(T record, ByteBuffer target) {
        CodedOutputStream output = CodedOutputStream.newInstance(target);
        try {
            schema.writeTo(record, output);
            output.flush(); // moves the target's position past what was written
        } catch (IOException e) {
            // A test, not a catch clause: the JVM loads a caught type when it links the class, and
            // this one must link without protobuf-java so that the factories can say it is missing.
            if (e instanceof CodedOutputStream.OutOfSpaceException) {
                throw new BufferOverflowException();
            }
            throw new UncheckedIOException(name + " could not encode a record", e);
        }
    }

    @Override
    public T decode(ByteBuffer source) {
        try {
            T record = schema.readFrom(CodedInputStream.newInstance(source));
            return record;
        } catch (IOException e) {
            throw new UncheckedIOException(name + " could not decode a record", e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
