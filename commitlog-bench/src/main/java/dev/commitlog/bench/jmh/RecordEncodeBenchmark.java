package dev.commitlog.bench.jmh;

import dev.commitlog.format.FrameChecksum;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.segment.Segment;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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

/**
 * The cost of the library's framing on the append path, by record size, with no claim and no sync:
 * {@code frame} copies the payload into a segment, computes the frame's CRC32C (position, length
 * word, payload: {@link FrameChecksum}) and publishes the header with an ordered store, exactly as
 * {@code CommitLog.append(byte[], int, int)} does; {@code crc32c} is the checksum alone. The
 * {@code payloadBytes} counter is reported per second, i.e. payload bytes/s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RecordEncodeBenchmark {
    private static final int SEGMENT_BYTES = 4 << 20;
    private static final int FIRST_OFFSET = 128;   // past a segment header, as in a real segment

    @Param({"16", "100", "1024", "4096"})
    public int recordBytes;

    private byte[] payload;
    private Segment segment;
    private final FrameChecksum checksum = new FrameChecksum();
    private long offset = FIRST_OFFSET;
    private int aligned;

    /** Per-iteration payload bytes: JMH reports it as a rate (bytes/s). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long payloadBytes;

        @Setup(Level.Iteration)
        public void reset() {
            payloadBytes = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        payload = new byte[recordBytes];
        new Random(42).nextBytes(payload);
        segment = new Segment(0, 0, new HeapSegmentFile(SEGMENT_BYTES), FIRST_OFFSET);
        aligned = RecordDescriptor.alignedFrameLength(recordBytes);
    }

    @Benchmark
    public int frame(Bytes bytes) {
        long at = offset;
        if (at + aligned > segment.recordLimit()) {
            at = FIRST_OFFSET;   // wrap: the segment is a scratch area here
        }
        offset = at + aligned;
        segment.write(at, payload, 0, recordBytes);
        int frameLength = RecordDescriptor.frameLength(recordBytes);
        int crc = checksum.begin(at, frameLength).update(payload, 0, recordBytes).value();
        segment.publish(at, frameLength, crc);
        bytes.payloadBytes += recordBytes;
        return crc;
    }

    @Benchmark
    public int crc32c(Bytes bytes) {
        int frameLength = RecordDescriptor.frameLength(recordBytes);
        bytes.payloadBytes += recordBytes;
        return checksum.begin(offset, frameLength).update(payload, 0, recordBytes).value();
    }
}
