package dev.commitlog.codecs;

import java.io.IOException;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;

/**
 * How a type is packed with {@code msgpack-core} (which has no object mapper): the fields in order,
 * and an upper bound of the packed size so the log can claim space and pack in place.
 *
 * @param <T> the record type
 */
public interface MsgpackSchema<T> {
    /** An upper bound of the bytes {@link #pack} writes, or {@code RecordCodec.UNKNOWN_LENGTH}. */
    int maxPackedLength(T record);

    void pack(T record, MessagePacker packer) throws IOException;

    T unpack(MessageUnpacker unpacker) throws IOException;
}
