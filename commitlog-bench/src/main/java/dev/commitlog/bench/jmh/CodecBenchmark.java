package dev.commitlog.bench.jmh;

import dev.commitlog.bench.codec.Encoding;
import dev.commitlog.codec.BytesRecordCodec;
import dev.commitlog.codecs.example.WalRecord;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import net.openhft.chronicle.bytes.Bytes;

/**
 * Nanoseconds to encode and to decode one WalRecord with each encoding, off the log: encoding into
 * a direct buffer (what the mapped segment is), decoding from a read-only direct buffer (what replay
 * hands a codec). {@code raw} copies the pre-encoded bytes in (encode) and reads nothing (decode):
 * the floor. A {@link BytesRecordCodec} (the hand codec) works on Chronicle {@code Bytes} over the same
 * buffers, as the log hands it. Run with {@code -prof gc} for the bytes allocated per operation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBenchmark {
    @Param({"raw", "hand", "protobuf", "msgpack", "kryo", "kryo-staged", "cbor", "smile", "json"})
    public String encoding;

    private Encoding chosen;
    private WalRecord[] records;
    private byte[][] raw;
    private ByteBuffer target;
    private ByteBuffer encoded;
    private int[] starts;
    private int[] ends;
    private int next;
    private BytesRecordCodec<WalRecord> bytesCodec;
    private Bytes<ByteBuffer> targetBytes;
    private Bytes<ByteBuffer> encodedBytes;

    @Setup(Level.Trial)
    public void setUp() {
        chosen = Encoding.named(encoding);
        records = Encoding.samples();
        raw = Encoding.rawSamples(records);
        target = ByteBuffer.allocateDirect(8192);
        ByteBuffer all = ByteBuffer.allocateDirect(records.length * 1024);
        starts = new int[records.length];
        ends = new int[records.length];
        for (int i = 0; i < records.length; i++) {
            starts[i] = all.position();
            if (chosen.raw()) {
                all.put(raw[i]);
            } else {
                chosen.codec().encode(records[i], all);
            }
            ends[i] = all.position();
        }
        encoded = all.asReadOnlyBuffer();
        if (chosen.codec() instanceof BytesRecordCodec<WalRecord> bytes) {
            bytesCodec = bytes;
            targetBytes = Bytes.wrapForWrite(target);
            encodedBytes = Bytes.wrapForRead(all);
        }
    }

    @Benchmark
    public int encode() {
        int i = next++ & 1023;
        target.clear();
        if (bytesCodec != null) {
            targetBytes.clear();
            bytesCodec.encode(records[i], targetBytes);
            return (int) targetBytes.writePosition();
        }
        if (chosen.raw()) {
            target.put(raw[i]);
        } else {
            chosen.codec().encode(records[i], target);
        }
        return target.position();
    }

    @Benchmark
    public Object decode() {
        int i = next++ & 1023;
        if (bytesCodec != null) {
            encodedBytes.readLimit(ends[i]).readPosition(starts[i]);
            return bytesCodec.decode(encodedBytes);
        }
        encoded.limit(ends[i]).position(starts[i]);
        if (chosen.raw()) {
            return encoded.remaining();
        }
        return chosen.codec().decode(encoded);
    }
}
