package dev.commitlog.codecs;

import static org.junit.jupiter.api.Assertions.*;

import com.google.protobuf.StringValue;
import dev.commitlog.AppendCallback;
import dev.commitlog.CommitLog;
import dev.commitlog.codec.RecordCodec;
import dev.commitlog.codec.TypedTailer;
import dev.commitlog.codecs.example.WalRecord;
import dev.commitlog.codecs.example.WalRecordBytesCodec;
import dev.commitlog.codecs.example.WalRecordSchemas;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every adapter round-trips WalRecords through a real log: appended (sync and async) across many
 * small segments, then read back by replay, by a tailer and after reopening, equal field by field;
 * and through a plain heap ByteBuffer (the staging path's kind of target).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CodecsRoundTripTest {
    private static final int RECORDS = 2_000;

    @TempDir
    Path dir;

    static Stream<RecordCodec<WalRecord>> codecs() {
        return Stream.of(WalRecordBytesCodec.INSTANCE, JacksonCodec.json(WalRecord.class), JacksonCodec.cbor(WalRecord.class),
                JacksonCodec.smile(WalRecord.class), new MsgpackCodec<>(WalRecordSchemas.MSGPACK, "msgpack"),
                ProtobufCodec.of(WalRecordSchemas.PROTOBUF, "protobuf"),
                KryoCodec.bounded(WalRecordSchemas::kryo, WalRecord.class, WalRecordSchemas::kryoBound),
                KryoCodec.unbounded(WalRecordSchemas::kryo, WalRecord.class));
    }

    /**
     * Sample records, with a few awkward ones: empty key and note, non-ASCII and astral text, Latin-1
     * text that is not ASCII (one byte a char in the String, two in UTF-8), extreme numbers.
     */
    static WalRecord record(int i) {
        WalRecord record = WalRecord.sample(i);
        switch (i % 50) {
            case 7 -> {
                record.key = new byte[0];
                record.note = "";
            }
            case 8 -> record.note = "café ☕ 𝄞 naïve — " + i;
            case 10 -> record.note = "crème brûlée, ½ price, " + i;
            case 11 -> record.note = "n°" + i % 10; // shorter than 8 bytes: Latin-1 in the last, byte-wise part of the check
            case 9 -> {
                record.txnId = Long.MIN_VALUE;
                record.balance = Long.MAX_VALUE;
                record.tableId = Integer.MIN_VALUE;
                record.price = Double.NaN;
                record.quantity = -1;
            }
            default -> { }
        }
        return record;
    }

    private CommitLogConfig config() {
        return CommitLogConfig.builder(dir).syncMode(SyncMode.PERIODIC).syncPeriod(Duration.ofMillis(5)).segmentSize(64 * 1024).build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    void recordsRoundTripThroughALog(RecordCodec<WalRecord> codec) throws Exception {
        Map<Long, WalRecord> appended = new LinkedHashMap<>();
        AtomicInteger durable = new AtomicInteger();
        CompletableFuture<Void> failed = new CompletableFuture<>();
        AppendCallback callback = AppendCallback.of(position -> durable.incrementAndGet(),
                (position, cause) -> failed.completeExceptionally(cause));
        try (CommitLog log = CommitLog.open(config())) {
            for (int i = 0; i < RECORDS; i++) {
                WalRecord record = record(i);
                long position = i % 2 == 0 ? log.append(record, codec) : log.appendAsync(record, codec, callback);
                appended.put(position, record);
            }
            log.sync();
            assertFalse(failed.isCompletedExceptionally());
            assertEquals(appended, replay(log, codec), codec + ": replay");
            Map<Long, WalRecord> tailed = new LinkedHashMap<>();
            try (TypedTailer<WalRecord> tailer = log.tailer(0, codec)) {
                while (tailed.size() < appended.size()) {
                    assertTrue(tailer.poll(tailed::put, 500, 1, TimeUnit.SECONDS) > 0, codec + ": the tailer stalled");
                }
            }
            assertEquals(appended, tailed, codec + ": tailer");
        }
        assertEquals(RECORDS / 2, durable.get(), codec + ": async completions");
        try (CommitLog log = CommitLog.open(config())) {
            assertEquals(appended, replay(log, codec), codec + ": replay after reopening");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("codecs")
    void recordsRoundTripThroughAHeapBuffer(RecordCodec<WalRecord> codec) {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        for (int i = 0; i < 100; i++) {
            WalRecord record = record(i);
            buffer.clear().position(3);
            codec.encode(record, buffer);
            int bound = codec.maxEncodedLength(record);
            assertTrue(bound == RecordCodec.UNKNOWN_LENGTH || buffer.position() - 3 <= bound, codec + ": within its bound");
            buffer.flip().position(3);
            assertEquals(record, codec.decode(buffer), codec + ": record " + i);
        }
    }

    @Test
    void theHandCodecKnowsItsExactSize() {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        for (int i = 0; i < 200; i++) {
            WalRecord record = record(i);
            buffer.clear();
            WalRecordBytesCodec.INSTANCE.encode(record, buffer);
            assertEquals(WalRecordBytesCodec.INSTANCE.maxEncodedLength(record), buffer.position(), "record " + i);
        }
    }

    @Test
    void generatedProtobufMessagesRoundTrip() throws Exception {
        RecordCodec<StringValue> codec = ProtobufCodec.of(StringValue.parser());
        Map<Long, StringValue> appended = new LinkedHashMap<>();
        try (CommitLog log = CommitLog.open(config())) {
            for (int i = 0; i < 500; i++) {
                StringValue value = StringValue.of("value " + i + " ".repeat(i % 40));
                appended.put(log.append(value, codec), value);
            }
            log.sync();
            Map<Long, StringValue> replayed = new LinkedHashMap<>();
            log.replay(0, codec, replayed::put);
            assertEquals(appended, replayed);
        }
    }

    private static Map<Long, WalRecord> replay(CommitLog log, RecordCodec<WalRecord> codec) throws Exception {
        Map<Long, WalRecord> replayed = new LinkedHashMap<>();
        log.replay(0, codec, replayed::put);
        return replayed;
    }
}
