package dev.commitlog.codecs;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import java.io.IOException;

/**
 * The protobuf wire form of a plain Java type, written by hand as a generated message's
 * {@code getSerializedSize}, {@code writeTo} and {@code parseFrom} would be, for types that are not
 * generated messages (see {@link ProtobufCodec#of(ProtobufSchema, String)}).
 *
 * @param <T> the record type
 */
public interface ProtobufSchema<T> {
    /** The exact number of bytes {@link #writeTo} writes. */
    int serializedSize(T record);

    void writeTo(T record, CodedOutputStream output) throws IOException;

    T readFrom(CodedInputStream input) throws IOException;
}
