package dev.commitlog.codecs.example;

import com.esotericsoftware.kryo.Kryo;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import dev.commitlog.codecs.MsgpackSchema;
import dev.commitlog.codecs.ProtobufSchema;
import java.io.IOException;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;

/**
 * {@link WalRecord} bound to each library: its protobuf schema (the wire form of the message below,
 * written as generated code would write it), its MessagePack layout, and Kryo's set-up and size bound.
 *
 * <pre>
 * message WalRecord {
 *   int64 txn_id = 1; int32 table_id = 2; int32 op = 3; int64 commit_time_micros = 4; bytes key = 5;
 *   sint64 balance = 6; double price = 7; int32 quantity = 8; string note = 9;
 * }
 * </pre>
 */
public final class WalRecordSchemas {
    private WalRecordSchemas() {
    }

    public static final ProtobufSchema<WalRecord> PROTOBUF = new ProtobufSchema<>() {
        @Override
        public int serializedSize(WalRecord r) {
            return CodedOutputStream.computeInt64Size(1, r.txnId) + CodedOutputStream.computeInt32Size(2, r.tableId)
                    + CodedOutputStream.computeInt32Size(3, r.op) + CodedOutputStream.computeInt64Size(4, r.commitTimeMicros)
                    + CodedOutputStream.computeByteArraySize(5, r.key) + CodedOutputStream.computeSInt64Size(6, r.balance)
                    + CodedOutputStream.computeDoubleSize(7, r.price) + CodedOutputStream.computeInt32Size(8, r.quantity)
                    + CodedOutputStream.computeStringSize(9, r.note);
        }

        @Override
        public void writeTo(WalRecord r, CodedOutputStream out) throws IOException {
            out.writeInt64(1, r.txnId);
            out.writeInt32(2, r.tableId);
            out.writeInt32(3, r.op);
            out.writeInt64(4, r.commitTimeMicros);
            out.writeByteArray(5, r.key);
            out.writeSInt64(6, r.balance);
            out.writeDouble(7, r.price);
            out.writeInt32(8, r.quantity);
            out.writeString(9, r.note);
        }

        @Override
        public WalRecord readFrom(CodedInputStream in) throws IOException {
            WalRecord r = new WalRecord();
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                switch (WireFormat.getTagFieldNumber(tag)) {
                    case 1 -> r.txnId = in.readInt64();
                    case 2 -> r.tableId = in.readInt32();
                    case 3 -> r.op = (byte) in.readInt32();
                    case 4 -> r.commitTimeMicros = in.readInt64();
                    case 5 -> r.key = in.readByteArray();
                    case 6 -> r.balance = in.readSInt64();
                    case 7 -> r.price = in.readDouble();
                    case 8 -> r.quantity = in.readInt32();
                    case 9 -> r.note = in.readString();
                    default -> in.skipField(tag); // a field from a newer schema
                }
            }
            return r;
        }
    };

    /** An array of the nine fields, in declaration order. */
    public static final MsgpackSchema<WalRecord> MSGPACK = new MsgpackSchema<>() {
        @Override
        public int maxPackedLength(WalRecord r) {
            return 1 + 9 * 9 + 5 + r.key.length + 5 + 3 * r.note.length();
        }

        @Override
        public void pack(WalRecord r, MessagePacker p) throws IOException {
            p.packArrayHeader(9).packLong(r.txnId).packInt(r.tableId).packByte(r.op).packLong(r.commitTimeMicros);
            p.packBinaryHeader(r.key.length).writePayload(r.key);
            p.packLong(r.balance).packDouble(r.price).packInt(r.quantity).packString(r.note);
        }

        @Override
        public WalRecord unpack(MessageUnpacker u) throws IOException {
            int fields = u.unpackArrayHeader();
            if (fields != 9) {
                throw new IOException("a WalRecord has 9 fields, found " + fields);
            }
            WalRecord r = new WalRecord();
            r.txnId = u.unpackLong();
            r.tableId = u.unpackInt();
            r.op = u.unpackByte();
            r.commitTimeMicros = u.unpackLong();
            r.key = u.readPayload(u.unpackBinaryHeader());
            r.balance = u.unpackLong();
            r.price = u.unpackDouble();
            r.quantity = u.unpackInt();
            r.note = u.unpackString();
            return r;
        }
    };

    /** A Kryo that knows WalRecord (registration required, so no class names are written). */
    public static Kryo kryo() {
        Kryo kryo = new Kryo();
        kryo.register(WalRecord.class);
        kryo.register(byte[].class);
        return kryo;
    }

    /**
     * An upper bound of Kryo's FieldSerializer encoding of a WalRecord: varints of up to 10 bytes
     * for the longs and 5 for the ints and lengths, a null marker per object field, 3 bytes a char.
     */
    public static int kryoBound(WalRecord r) {
        return 3 * 10 + 2 * 5 + 1 + 8 + 10 + (2 + 5 + r.key.length) + (2 + 5 + 3 * r.note.length());
    }
}
