package dev.commitlog.bench.jmh;

import dev.commitlog.bench.sut.RunKey;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.section.DamagedSectionException;
import dev.commitlog.section.SectionDecoder;
import dev.commitlog.section.SectionEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The section transform's cost on one thread, apart from any disk: encoding one flushed range
 * (compress, then encrypt) and decoding it back, per codec and cipher, for a JSON-like range (the
 * codecs benchmark's kind of record, as text) and an incompressible one. Plain MB/s = {@code size}
 * / time per op. {@code storedRatio} is printed at setup: stored bytes per plain byte.
 * Run: {@code java -jar commitlog-bench.jar jmh SectionTransformBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SectionTransformBenchmark {
    @Param({"NONE", "LZ4", "ZSTD"})
    public Compression compression;
    @Param({"NONE", "AES_GCM"})
    public Encryption encryption;
    @Param({"json", "random"})
    public String payload;
    @Param({"65536"})
    public int size;

    private SectionEncoder encoder;
    private SectionDecoder decoder;
    private ByteBuffer plain;
    private ByteBuffer section;
    private ByteBuffer plainOut;
    private long start;

    @Setup(Level.Trial)
    public void setUp() throws DamagedSectionException {
        KeyProvider keys = encryption == Encryption.NONE ? null : RunKey.INSTANCE;
        encoder = new SectionEncoder(compression, 3, encryption, keys, size).startSegment(1, 1);
        decoder = new SectionDecoder(keys).forSegment(1, 1);
        plain = ByteBuffer.allocateDirect(size);
        plain.put(payload.equals("json") ? json(size) : random(size)).flip();
        section = ByteBuffer.allocateDirect(encoder.maxSectionLength(size));
        plainOut = ByteBuffer.allocateDirect(size);
        int length = encoder.encode(plain, 64, 64, section);
        section.flip();
        decoder.decode(section, 0, 64, 64, plainOut);
        if (!plainOut.flip().equals(plain)) {
            throw new IllegalStateException("the section did not decode to its plain range");
        }
        System.out.printf("%n%s %s %s: storedRatio %.3f%n", compression, encryption, payload, (double) length / size);
        start = 64;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        encoder.close();
        decoder.close();
    }

    /** One range into one section: what the flusher will do per flush. */
    @Benchmark
    public int encode() {
        ByteBuffer out = section.clear();
        start += size;
        return encoder.encode(plain, start, 64, out);
    }

    /** The section made at setup back into its range: what replay and readAt will do per section. */
    @Benchmark
    public int decode() throws DamagedSectionException {
        plainOut.clear();
        return decoder.decode(section, 0, 64, 64, plainOut);
    }

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random(1).nextBytes(bytes);
        return bytes;
    }

    /** JSON records with the same keys and varied values, one after another. */
    private static byte[] json(int size) {
        Random random = new Random(1);
        StringBuilder text = new StringBuilder(size + 256);
        while (text.length() < size) {
            int id = random.nextInt(1_000_000);
            text.append("{\"id\":").append(id).append(",\"name\":\"user-").append(id).append("\",\"email\":\"user").append(id)
                    .append("@example.com\",\"balance\":").append(random.nextInt(100_000)).append('.').append(random.nextInt(100))
                    .append(",\"tags\":[\"").append(random.nextBoolean() ? "gold" : "silver").append("\",\"active\"],\"updated\":")
                    .append(1_700_000_000_000L + random.nextInt(1 << 30)).append("}\n");
        }
        return text.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }
}
