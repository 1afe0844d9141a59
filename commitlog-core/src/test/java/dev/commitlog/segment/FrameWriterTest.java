package dev.commitlog.segment;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.RecordTooLargeException;
import dev.commitlog.codec.RecordCodec;
import dev.commitlog.codec.RecordEncodingException;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.instrument.MetricsRecorder;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.replay.FrameScanner;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The frame writer's own promises, read back frame by frame with the scanner replay uses: a frame
 * is invisible until commit publishes its length word; a shrunk claim leaves an aborted frame over
 * its unused end; a failing codec or an abort turns the whole claim into one aborted frame; one
 * claim at a time.
 */
class FrameWriterTest {
    private static final int SIZE = 64 * 1024;
    private static final int FIRST = SegmentDescriptor.SEGMENT_HEADER_LENGTH;

    private final RecordingSegmentFile file = new RecordingSegmentFile(SIZE);
    private final Segment segment = new Segment(0, 0, file, FIRST);
    private final SimulatedDisk disk = new SimulatedDisk();
    private final SegmentWriter segments = SegmentWriter.start(segment, null, disk, Path.of("/frames"), SIZE,
            PosixFilePermissions.fromString("rw-r-----"), SpareSegments.none(disk, Path.of("/frames"), SIZE), new MetricsRecorder());
    private final FrameWriter frame = new FrameWriter();
    private final FrameScanner scanner = new FrameScanner();

    @AfterEach
    void close() {
        segments.close();
    }

    private FrameScanner.Kind scan(int offset) {
        scanner.reset(file.buffer(), 0);
        return scanner.scan(offset);
    }

    @Test
    void aCopiedRecordIsUnpublishedUntilCommitThenVerifies() throws Exception {
        frame.claim(segments, 5);
        frame.write(new byte[] {1, 2, 3, 4, 5}, 0, 5);
        assertEquals(FrameScanner.Kind.UNWRITTEN, scan(FIRST), "the length word is written last, by commit");
        frame.commit();
        assertEquals(FrameScanner.Kind.RECORD, scan(FIRST));
        assertEquals(5, scanner.payloadLength());
        assertEquals(FIRST, frame.position());
        assertEquals(FIRST + RecordDescriptor.alignedFrameLength(5), frame.endPosition());
    }

    @Test
    void aBufferIsCopiedAndLeftWhereItWas() throws Exception {
        ByteBuffer source = ByteBuffer.wrap(new byte[] {9, 8, 7, 6});
        source.position(1);
        frame.claim(segments, 3);
        frame.write(source);
        frame.commit();
        assertEquals(1, source.position());
        assertEquals(FrameScanner.Kind.RECORD, scan(FIRST));
        assertEquals(3, scanner.payloadLength());
    }

    @Test
    void aSecondClaimBeforeTheFirstEndsIsRefusedAndTheFirstStillCommits() throws Exception {
        frame.claim(segments, 8);
        assertThrows(IllegalStateException.class, () -> frame.claim(segments, 8));
        frame.write(new byte[8], 0, 8);
        frame.commit();
        assertEquals(FrameScanner.Kind.RECORD, scan(FIRST));
        assertFalse(frame.isOpen());
        assertThrows(IllegalStateException.class, frame::commit, "nothing is claimed any more");
    }

    @Test
    void aCopyOfAnotherLengthThanClaimedIsRefused() throws Exception {
        frame.claim(segments, 8);
        assertThrows(IllegalArgumentException.class, () -> frame.write(new byte[7], 0, 7));
        frame.abort();
        assertEquals(FrameScanner.Kind.ABORTED, scan(FIRST));
    }

    @Test
    void anEncodingShorterThanItsBoundLeavesTheUnusedEndAsAnAbortedFrameAndZeroPadding() throws Exception {
        RecordCodec<String> dirty = codec(100, (record, target) -> {
            target.put(record.getBytes());
            int end = target.position();
            target.put(end, (byte) 0x7f); // garbage past the record, inside its padding
        });
        frame.claim(segments, 100);
        frame.encode("abc", dirty);
        frame.commit();
        assertEquals(FrameScanner.Kind.RECORD, scan(FIRST), "the padding was zeroed (the scanner checks it)");
        assertEquals(3, scanner.payloadLength());
        int next = FIRST + RecordDescriptor.alignedFrameLength(3);
        assertEquals(FrameScanner.Kind.ABORTED, scan(next));
        assertEquals(RecordDescriptor.alignedFrameLength(100) - RecordDescriptor.alignedFrameLength(3), scanner.alignedLength());
    }

    @Test
    void aFailingCodecAbortsTheWholeClaim() throws Exception {
        frame.claim(segments, 40);
        RecordEncodingException e = assertThrows(RecordEncodingException.class,
                () -> frame.encode("x", codec(40, (record, target) -> {
                    throw new IllegalStateException("broken");
                })));
        assertTrue(e.getMessage().contains("was aborted, nothing was logged"), e.getMessage());
        assertFalse(frame.isOpen());
        assertEquals(FrameScanner.Kind.ABORTED, scan(FIRST));
        assertEquals(RecordDescriptor.alignedFrameLength(40), scanner.alignedLength());
    }

    @Test
    void aCodecWritingPastItsBoundAbortsTheClaim() throws Exception {
        frame.claim(segments, 2);
        assertThrows(RecordEncodingException.class, () -> frame.encode("longer", codec(2, (record, target) -> target.put(record.getBytes()))));
        assertEquals(FrameScanner.Kind.ABORTED, scan(FIRST));
    }

    @Test
    void stagingGrowsUpToTheLimitAndRefusesMore() {
        RecordCodec<String> unbounded = codec(RecordCodec.UNKNOWN_LENGTH, (record, target) -> target.put(record.getBytes()));
        ByteBuffer staged = frame.stage("y".repeat(10_000), unbounded, 16_384);
        assertEquals(10_000, staged.remaining());
        assertThrows(RecordTooLargeException.class, () -> frame.stage("z".repeat(20_000), unbounded, 16_384));
    }

    private interface Encoder {
        void encode(String record, ByteBuffer target);
    }

    private static RecordCodec<String> codec(int bound, Encoder encoder) {
        return new RecordCodec<>() {
            @Override
            public int maxEncodedLength(String record) {
                return bound;
            }

            @Override
            public void encode(String record, ByteBuffer target) {
                encoder.encode(record, target);
            }

            @Override
            public String decode(ByteBuffer source) {
                throw new UnsupportedOperationException();
            }
        };
    }
}
