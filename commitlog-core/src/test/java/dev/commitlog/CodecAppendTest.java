package dev.commitlog;

import static dev.commitlog.TestLogs.NO_DAMAGE;
import static dev.commitlog.TestLogs.config;
import static dev.commitlog.codec.TestCodecs.BOUNDED_TEXT;
import static dev.commitlog.codec.TestCodecs.LONG_PAIR;
import static dev.commitlog.codec.TestCodecs.UNBOUNDED_TEXT;
import static dev.commitlog.format.RecordDescriptor.alignedFrameLength;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.codec.RecordCodec;
import dev.commitlog.codec.RecordEncodingException;
import dev.commitlog.codec.TypedAppendCallback;
import dev.commitlog.codec.TypedTailer;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Typed appends through a {@link RecordCodec}: what goes in comes back from replay, a tailer and a
 * reopened log; a claim made with a loose bound shrinks to the true length; a failing codec logs
 * nothing and leaves the log working. A claim left unpublished would stall the sync thread, so
 * each test has a time limit: a hang is a failure.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CodecAppendTest {
    @TempDir
    Path dir;

    private CommitLogConfig smallSegments() {
        return config(dir, SyncMode.BATCH).segmentSize(TestLogs.SMALL_SEGMENT).build();
    }

    private static String text(int i) {
        return "record-" + i + "-" + "x".repeat(i % 97);
    }

    @Test
    void boundedRecordsRoundTripThroughReplayTailerAndReopenAcrossSegments() throws Exception {
        Map<Long, String> appended = new LinkedHashMap<>();
        try (CommitLog log = CommitLog.open(smallSegments())) {
            for (int i = 0; i < 2_000; i++) { // about 20 segments of 64 KiB
                appended.put(log.append(text(i), BOUNDED_TEXT), text(i));
            }
            appended.put(log.append("", BOUNDED_TEXT), "");
            assertEquals(appended, replay(log, BOUNDED_TEXT));
            Map<Long, String> tailed = new LinkedHashMap<>();
            try (TypedTailer<String> tailer = log.tailer(0, BOUNDED_TEXT)) {
                while (tailed.size() < appended.size()) {
                    assertTrue(tailer.poll(tailed::put, 1_000, 1, TimeUnit.SECONDS) > 0, "the tailer stalled at " + tailed.size());
                }
            }
            assertEquals(appended, tailed);
        }
        try (CommitLog log = CommitLog.open(smallSegments(), CommitLogOptions.builder().corruptionListener(NO_DAMAGE).build())) {
            assertEquals(appended, replay(log, BOUNDED_TEXT), "after reopening (recovery walks the shrunk claims)");
            assertEquals(appended.size(), TestLogs.replayAll(log).size(), "the unused ends of claims are no records");
        }
    }

    @Test
    void aShrunkClaimKeepsItsSpaceAndItsFrameCarriesTheTrueLength() throws Exception {
        try (CommitLog log = CommitLog.open(smallSegments())) {
            long first = log.append("abc", BOUNDED_TEXT); // bound 9: claims 24 bytes, the record needs 16
            long second = log.append("abcdefgh", BOUNDED_TEXT);
            assertEquals(first + alignedFrameLength(9), second, "the claim's space is kept");
            List<TestLogs.Entry> raw = TestLogs.replayAll(log);
            assertEquals(2, raw.size());
            assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), raw.get(0).payload(), "the frame's length is what was written");
        }
    }

    @Test
    void exactSizeRecordsOfEveryPaddingRoundTrip() throws Exception {
        RecordCodec<String> exact = new DelegatingText() {
            @Override
            public int maxEncodedLength(String record) {
                return record.length(); // ASCII: exact
            }
        };
        Map<Long, String> appended = new LinkedHashMap<>();
        try (CommitLog log = CommitLog.open(smallSegments())) {
            for (int length = 0; length < 40; length++) { // every padding from 0 to 7 bytes, several times
                String record = "p".repeat(length);
                appended.put(log.append(record, exact), record);
            }
            assertEquals(appended, replay(log, exact));
        }
    }

    @Test
    void unboundedRecordsAreStagedAndCopiedWhateverTheirSize() throws Exception {
        Map<Long, String> appended = new LinkedHashMap<>();
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build())) {
            for (int length : new int[] {0, 10, 4_095, 4_096, 4_097, 20_000, 100, 70_000}) { // past the staging buffer's first size
                String record = "u".repeat(length);
                appended.put(log.append(record, UNBOUNDED_TEXT), record);
            }
            assertEquals(appended, replay(log, UNBOUNDED_TEXT));
        }
    }

    @Test
    void chronicleBytesCodecsEncodeAndDecodeThroughBytes() throws Exception {
        Map<Long, Long> appended = new LinkedHashMap<>();
        try (CommitLog log = CommitLog.open(smallSegments())) {
            for (long i = 0; i < 5_000; i++) {
                appended.put(log.append(new long[] {i, -i}, LONG_PAIR), i);
            }
            Map<Long, Long> replayed = new LinkedHashMap<>();
            log.replay(0, LONG_PAIR, (position, pair) -> {
                assertEquals(pair[0], -pair[1]);
                replayed.put(position, pair[0]);
            });
            assertEquals(appended, replayed);
        }
    }

    @Test
    void aBytesCodecAlsoWorksOnByteBuffers() {
        ByteBuffer buffer = ByteBuffer.allocate(32);
        buffer.position(5);
        LONG_PAIR.encode(new long[] {7, 9}, buffer);
        assertEquals(21, buffer.position());
        buffer.flip().position(5);
        assertArrayEquals(new long[] {7, 9}, LONG_PAIR.decode(buffer));
    }

    @Test
    void asynchronousTypedAppendsCompleteInPositionOrder() throws Exception {
        List<Long> durable = new ArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        int count = 3_000;
        AppendCallback callback = (position, failure) -> {
            if (failure != null) {
                done.completeExceptionally(failure);
                return;
            }
            durable.add(position);
            if (durable.size() == count) {
                done.complete(null);
            }
        };
        List<Long> positions = new ArrayList<>();
        try (CommitLog log = CommitLog.open(smallSegments())) {
            for (int i = 0; i < count; i++) {
                positions.add(log.appendAsync(text(i), BOUNDED_TEXT, callback));
            }
            done.get(30, TimeUnit.SECONDS);
            assertEquals(positions, durable);
            assertEquals(count, replay(log, BOUNDED_TEXT).size());
        }
    }

    @Test
    void aTypedCallbackIsHandedBackEachRecordWithItsPositionInOrder() throws Exception {
        int count = 3_000;
        List<String> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(text(i)); // distinct instances: the callback must get back the very object appended
        }
        List<String> handedBack = new ArrayList<>();
        List<Long> durable = new ArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        TypedAppendCallback<String> callback = (record, position, failure) -> {
            if (failure != null) {
                done.completeExceptionally(failure);
                return;
            }
            handedBack.add(record);
            durable.add(position);
            if (durable.size() == count) {
                done.complete(null);
            }
        };
        List<Long> positions = new ArrayList<>();
        try (CommitLog log = CommitLog.open(smallSegments())) {
            for (String record : records) {
                positions.add(log.appendAsync(record, BOUNDED_TEXT, callback));
            }
            done.get(30, TimeUnit.SECONDS);
            assertEquals(positions, durable);
            for (int i = 0; i < count; i++) {
                assertSame(records.get(i), handedBack.get(i), "record " + i);
            }
            Map<Long, String> replayed = replay(log, BOUNDED_TEXT);
            assertEquals(records, new ArrayList<>(replayed.values()));
        }
    }

    @Test
    void aTypedFutureCompletesWithThePositionOnceDurable() throws Exception {
        try (CommitLog log = CommitLog.open(smallSegments())) {
            List<CompletableFuture<Long>> futures = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                futures.add(i % 2 == 0 ? log.appendAsync(text(i), BOUNDED_TEXT) : log.appendAsync(text(i), UNBOUNDED_TEXT));
            }
            long last = futures.get(futures.size() - 1).get(30, TimeUnit.SECONDS);
            assertTrue(log.durablePosition() > last);
            Map<Long, String> replayed = replay(log, BOUNDED_TEXT);
            for (int i = 0; i < futures.size(); i++) {
                assertEquals(text(i), replayed.get(futures.get(i).join()), "record " + i);
            }
        }
    }

    @Test
    void aTypedAppendWhoseCodecFailsRegistersNoCompletion() throws Exception {
        RecordCodec<String> failing = new DelegatingText() {
            @Override
            public void encode(String record, ByteBuffer target) {
                throw new IllegalStateException("cannot encode " + record);
            }
        };
        List<String> completed = new ArrayList<>();
        TypedAppendCallback<String> callback = (record, position, failure) -> completed.add(record);
        try (CommitLog log = CommitLog.open(smallSegments())) {
            assertThrows(RecordEncodingException.class, () -> log.appendAsync("bad", failing, callback));
            log.appendAsync("good", BOUNDED_TEXT, callback);
        } // close completes every append its last flush covered
        assertEquals(List.of("good"), completed, "only the appended record completes; the failed one holds no slot");
    }

    @Test
    void aCodecThatWritesPastItsBoundLogsNothingAndTheLogGoesOn() throws Exception {
        RecordCodec<String> liar = new DelegatingText() {
            @Override
            public int maxEncodedLength(String record) {
                return 2;
            }
        };
        assertFailsAndLogGoesOn(liar, "wrote more than its bound of 2 bytes");
    }

    @Test
    void aCodecThatThrowsLogsNothingAndTheLogGoesOn() throws Exception {
        RecordCodec<String> broken = new DelegatingText() {
            @Override
            public void encode(String record, ByteBuffer target) {
                target.put((byte) 1);
                throw new IllegalArgumentException("no mapping for this record");
            }
        };
        assertFailsAndLogGoesOn(broken, "no mapping for this record");
    }

    @Test
    void aCodecThatMovesTheLimitIsCaught() throws Exception {
        RecordCodec<String> widening = new DelegatingText() {
            @Override
            public void encode(String record, ByteBuffer target) {
                target.limit(target.limit() + 8);
                super.encode(record, target);
            }
        };
        assertFailsAndLogGoesOn(widening, "moved the target's limit");
    }

    private void assertFailsAndLogGoesOn(RecordCodec<String> codec, String expectedMessage) throws Exception {
        try (CommitLog log = CommitLog.open(smallSegments())) {
            long before = log.append("before", BOUNDED_TEXT);
            RecordEncodingException failure = assertThrows(RecordEncodingException.class, () -> log.append("a longer record", codec));
            assertTrue(failure.getMessage().contains(expectedMessage), failure.getMessage());
            assertTrue(failure.getMessage().contains("nothing was logged"), failure.getMessage());
            long after = log.append("after", BOUNDED_TEXT);
            assertEquals(Map.of(before, "before", after, "after"), replay(log, BOUNDED_TEXT));
        }
        try (CommitLog log = CommitLog.open(smallSegments(), CommitLogOptions.builder().corruptionListener(NO_DAMAGE).build())) {
            assertEquals(2, replay(log, BOUNDED_TEXT).size());
        }
    }

    @Test
    void aCodecThatScribblesPastItsEndStillLeavesZeroPadding() throws Exception {
        RecordCodec<String> scribbler = new DelegatingText() {
            @Override
            public void encode(String record, ByteBuffer target) {
                int end = target.position() + record.length();
                for (int i = end; i < target.limit(); i++) {
                    target.put(i, (byte) 0x7f); // scratch space past the record
                }
                super.encode(record, target);
            }
        };
        try (CommitLog log = CommitLog.open(smallSegments())) {
            long position = log.append("abc", scribbler);
            assertEquals(Map.of(position, "abc"), replay(log, BOUNDED_TEXT), "padding must read zero or replay reports damage");
        }
    }

    @Test
    void badBoundsAreRefusedBeforeAnythingIsWritten() throws Exception {
        RecordCodec<String> negative = new DelegatingText() {
            @Override
            public int maxEncodedLength(String record) {
                return -5;
            }
        };
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).maxRecordSize(1024).build())) {
            IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> log.append("x", negative));
            assertTrue(bad.getMessage().contains("returned -5"), bad.getMessage());
            assertThrows(RecordTooLargeException.class, () -> log.append("y".repeat(400), BOUNDED_TEXT)); // bound 1,200
            RecordTooLargeException staged = assertThrows(RecordTooLargeException.class, () -> log.append("z".repeat(2_000), UNBOUNDED_TEXT));
            assertTrue(staged.getMessage().contains("more than max_record_size of 1024"), staged.getMessage());
            long fits = log.append("w".repeat(1_024), UNBOUNDED_TEXT);
            assertEquals(Map.of(fits, "w".repeat(1_024)), replay(log, UNBOUNDED_TEXT));
        }
    }

    private static <T> Map<Long, T> replay(CommitLog log, RecordCodec<T> codec) throws Exception {
        Map<Long, T> replayed = new LinkedHashMap<>();
        log.replay(0, codec, replayed::put);
        return replayed;
    }

    /** BOUNDED_TEXT, for tests to break one method of. */
    private static class DelegatingText implements RecordCodec<String> {
        @Override
        public int maxEncodedLength(String record) {
            return BOUNDED_TEXT.maxEncodedLength(record);
        }

        @Override
        public void encode(String record, ByteBuffer target) {
            BOUNDED_TEXT.encode(record, target);
        }

        @Override
        public String decode(ByteBuffer source) {
            return BOUNDED_TEXT.decode(source);
        }

        @Override
        public String toString() {
            return getClass().getSimpleName();
        }
    }
}
