package dev.commitlog.bench.codec;

import dev.commitlog.AppendCallback;
import dev.commitlog.CommitLog;
import dev.commitlog.codec.BytesRecordCodec;
import dev.commitlog.codec.RecordCodec;
import dev.commitlog.codecs.JacksonCodec;
import dev.commitlog.codecs.KryoCodec;
import dev.commitlog.codecs.MsgpackCodec;
import dev.commitlog.codecs.ProtobufCodec;
import dev.commitlog.codecs.example.WalRecord;
import dev.commitlog.codecs.example.WalRecordBytesCodec;
import dev.commitlog.codecs.example.WalRecordSchemas;
import java.nio.ByteBuffer;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;

/**
 * One way of putting a {@link WalRecord} on the log, as the encoding benchmarks compare them:
 * {@code raw} appends the hand codec's bytes, encoded beforehand, as a {@code byte[]} (the ceiling:
 * no encoding on the append path); {@code raw+encode} encodes each record with the hand codec into
 * the appending thread's own array and appends that (what a caller of the {@code byte[]} API pays);
 * every other one appends the record through its codec.
 *
 * @param path     how the bytes reach the segment: in place, or staged and copied
 * @param preEncode for {@code raw+encode}: the codec that fills the thread's array before each
 *                  {@code byte[]} append; null otherwise
 */
public record Encoding(String name, String path, RecordCodec<WalRecord> codec, BytesRecordCodec<WalRecord> preEncode) {
    /** The encoding every ratio is taken against: the "raw bytes". */
    public static final String RAW = "raw";

    /** Each thread's array for {@code raw+encode}, wrapped once: the caller's own buffer, reused. */
    private static final ThreadLocal<Bytes<byte[]>> OWN_ARRAY = ThreadLocal.withInitial(() -> Bytes.wrapForWrite(new byte[4096]));

    public Encoding(String name, String path, RecordCodec<WalRecord> codec) {
        this(name, path, codec, null);
    }

    /** Every encoding, the ceiling first, then roughly from the cheapest expected to the dearest. */
    public static List<Encoding> all() {
        return List.of(
                new Encoding(RAW, "byte[] copy (pre-encoded)", null),
                new Encoding("raw+encode", "encode to own byte[], then copy", null, WalRecordBytesCodec.INSTANCE),
                new Encoding("hand", "in place (Chronicle Bytes)", WalRecordBytesCodec.INSTANCE),
                new Encoding("protobuf", "in place", ProtobufCodec.of(WalRecordSchemas.PROTOBUF, "protobuf")),
                new Encoding("msgpack", "in place", new MsgpackCodec<>(WalRecordSchemas.MSGPACK, "msgpack")),
                new Encoding("kryo", "in place (bound)", KryoCodec.bounded(WalRecordSchemas::kryo, WalRecord.class, WalRecordSchemas::kryoBound)),
                new Encoding("kryo-staged", "staged + copy", KryoCodec.unbounded(WalRecordSchemas::kryo, WalRecord.class)),
                new Encoding("cbor", "staged + copy", JacksonCodec.cbor(WalRecord.class)),
                new Encoding("smile", "staged + copy", JacksonCodec.smile(WalRecord.class)),
                new Encoding("json", "staged + copy", JacksonCodec.json(WalRecord.class)));
    }

    public static Encoding named(String name) {
        return all().stream().filter(e -> e.name.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no encoding named '" + name + "'"));
    }

    /** Whether this encoding appends a {@code byte[]} (pre-encoded, or encoded by the caller) rather than through a codec. */
    public boolean raw() {
        return codec == null;
    }

    /** The records the benchmarks cycle through: 1,024 samples, 16-32 byte keys, 40-160 character notes. */
    public static WalRecord[] samples() {
        WalRecord[] records = new WalRecord[1024];
        for (int i = 0; i < records.length; i++) {
            records[i] = WalRecord.sample(i);
        }
        return records;
    }

    /** The samples encoded by the hand codec: what {@code raw} appends. */
    public static byte[][] rawSamples(WalRecord[] records) {
        byte[][] raw = new byte[records.length][];
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        for (int i = 0; i < records.length; i++) {
            buffer.clear();
            WalRecordBytesCodec.INSTANCE.encode(records[i], buffer);
            raw[i] = new byte[buffer.position()];
            buffer.flip().get(raw[i]);
        }
        return raw;
    }

    /** Appends sample {@code i} durably (as the log's sync mode promises). */
    public long append(CommitLog log, WalRecord[] records, byte[][] raw, int i) {
        if (preEncode != null) {
            Bytes<byte[]> own = encodeOwn(records[i]);
            return log.append(own.underlyingObject(), 0, (int) own.writePosition());
        }
        if (codec == null) {
            byte[] bytes = raw[i];
            return log.append(bytes, 0, bytes.length);
        }
        return log.append(records[i], codec);
    }

    /** Appends sample {@code i} asynchronously; {@code callback} hears when it is durable. */
    public long appendAsync(CommitLog log, WalRecord[] records, byte[][] raw, int i, AppendCallback callback) {
        if (preEncode != null) {
            Bytes<byte[]> own = encodeOwn(records[i]);
            return log.appendAsync(own.underlyingObject(), 0, (int) own.writePosition(), callback); // copied before it returns
        }
        if (codec == null) {
            byte[] bytes = raw[i];
            return log.appendAsync(bytes, 0, bytes.length, callback);
        }
        return log.appendAsync(records[i], codec, callback);
    }

    /** Replays the log from its start, decoding each record as this encoding's reader would; returns the records seen. */
    public long replay(CommitLog log) {
        long[] seen = new long[1];
        if (raw()) {
            log.replay(0, (position, payload) -> seen[0] += payload.remaining() > 0 ? 1 : 1); // a view, decoded by nobody
        } else {
            log.replay(0, codec, (position, record) -> seen[0] += record.txnId != 0 ? 1 : 1);
        }
        return seen[0];
    }

    private Bytes<byte[]> encodeOwn(WalRecord record) {
        Bytes<byte[]> own = OWN_ARRAY.get();
        own.clear();
        preEncode.encode(record, own);
        return own;
    }

    /** The mean encoded size of the samples, in bytes. */
    public double meanPayload(WalRecord[] records, byte[][] raw) {
        ByteBuffer buffer = ByteBuffer.allocate(8192);
        long total = 0;
        for (int i = 0; i < records.length; i++) {
            if (raw()) {
                total += raw[i].length;
            } else {
                buffer.clear();
                codec.encode(records[i], buffer);
                total += buffer.position();
            }
        }
        return (double) total / records.length;
    }
}
