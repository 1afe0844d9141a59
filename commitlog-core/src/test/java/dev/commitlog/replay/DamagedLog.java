package dev.commitlog.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener;
import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import java.util.zip.CRC32C;

/**
 * A copy of the {@link PristineLog} that one named test damages in one chosen way (a flipped
 * byte, a forged length word, a lowered durable mark, a deleted or misplaced segment file), then
 * walks as recovery on open does: {@link LogWalker} from position 0 to the end, the torn tail from
 * the highest durable mark. Positions are log positions; segment {@code n} holds
 * {@code [n * SEGMENT_SIZE, (n + 1) * SEGMENT_SIZE)}, as in the pristine log.
 */
final class DamagedLog {
    static final Path DIRECTORY = Path.of("/walked-log"); // the simulated disk keys files by name only
    static final int SEGMENT_SIZE = PristineLog.SEGMENT_SIZE;

    private final PristineLog pristine = PristineLog.get();
    private final TreeMap<String, byte[]> files = pristine.copyOfFiles();

    /** The end of the pristine log: the durable position when it was closed, and its last segment's durable mark. */
    long endPosition() {
        return pristine.endPosition;
    }

    static long base(long segmentId) {
        return segmentId * SEGMENT_SIZE;
    }

    /** The first record of segment {@code segmentId} at or after record {@code index} of it whose payload is at least {@code minPayload} bytes. */
    long record(long segmentId, int index, int minPayload) {
        List<Long> inSegment = recordsIn(segmentId);
        for (int i = index; i < inSegment.size(); i++) {
            if (payloadLength(inSegment.get(i)) >= minPayload) {
                return inSegment.get(i);
            }
        }
        throw new IllegalStateException("no record of " + minPayload + "+ bytes from index " + index + " of segment " + segmentId);
    }

    /** The last record of segment {@code segmentId} whose payload is at least {@code minPayload} bytes. */
    long lastRecord(long segmentId, int minPayload) {
        List<Long> inSegment = recordsIn(segmentId);
        for (int i = inSegment.size() - 1; i >= 0; i--) {
            if (payloadLength(inSegment.get(i)) >= minPayload) {
                return inSegment.get(i);
            }
        }
        throw new IllegalStateException("no record of " + minPayload + "+ bytes in segment " + segmentId);
    }

    /** The first record of segment {@code segmentId} whose frame has padding (its length is not a multiple of 8). */
    long recordWithPadding(long segmentId) {
        for (long position : recordsIn(segmentId)) {
            int frame = RecordDescriptor.frameLength(payloadLength(position));
            if (frame % RecordDescriptor.ALIGNMENT != 0) {
                return position;
            }
        }
        throw new IllegalStateException("no padded record in segment " + segmentId);
    }

    List<Long> recordsIn(long segmentId) {
        return new ArrayList<>(pristine.records.subMap(base(segmentId), base(segmentId + 1)).keySet());
    }

    int payloadLength(long position) {
        return pristine.records.get(position).length;
    }

    /** Where the frame after the record at {@code position} starts. */
    long next(long position) {
        return position + RecordDescriptor.alignedFrameLength(payloadLength(position));
    }

    /** The position of the first frame of the pristine log that is not a record and not the end marker: the aborted claim. */
    long abortedClaim() {
        return frameOfKind(FrameScanner.Kind.ABORTED);
    }

    /** The position of segment {@code segmentId}'s end-of-segment marker. */
    long endMarker(long segmentId) {
        FrameScanner scanner = scannerOn(segmentId);
        for (int offset = SegmentDescriptor.SEGMENT_HEADER_LENGTH; ; ) {
            FrameScanner.Kind kind = scanner.scan(offset);
            if (kind == FrameScanner.Kind.END) {
                return base(segmentId) + offset;
            }
            if (kind != FrameScanner.Kind.RECORD && kind != FrameScanner.Kind.ABORTED) {
                throw new IllegalStateException("segment " + segmentId + " has no end marker");
            }
            offset += scanner.alignedLength();
        }
    }

    private long frameOfKind(FrameScanner.Kind wanted) {
        for (long id = 0; files.containsKey(SegmentDescriptor.fileName(id)); id++) {
            FrameScanner scanner = scannerOn(id);
            for (int offset = SegmentDescriptor.SEGMENT_HEADER_LENGTH; ; ) {
                FrameScanner.Kind kind = scanner.scan(offset);
                if (kind == wanted) {
                    return base(id) + offset;
                }
                if (kind != FrameScanner.Kind.RECORD && kind != FrameScanner.Kind.ABORTED) {
                    break;
                }
                offset += scanner.alignedLength();
            }
        }
        throw new IllegalStateException("no " + wanted + " frame in the pristine log");
    }

    private FrameScanner scannerOn(long segmentId) {
        FrameScanner scanner = new FrameScanner();
        scanner.reset(ByteBuffer.wrap(segment(segmentId)), base(segmentId));
        return scanner;
    }

    /** The pristine records whose positions pass {@code filter}, in position order. */
    List<Long> records(LongPredicate filter) {
        return pristine.records.keySet().stream().filter(filter::test).toList();
    }

    List<Long> recordsBefore(long position) {
        return records(p -> p < position);
    }

    List<Long> recordsExcept(long position) {
        return records(p -> p != position);
    }

    List<Long> allRecords() {
        return records(p -> true);
    }

    // ---- damage, each in one place ----

    /** Flips bits of a byte in the middle of the payload of the record at {@code position}. */
    void flipPayloadByte(long position) {
        int length = payloadLength(position);
        if (length == 0) {
            throw new IllegalArgumentException("the record at " + position + " has no payload to flip");
        }
        segmentOf(position)[offset(position) + RecordDescriptor.FRAME_HEADER_LENGTH + length / 2] ^= (byte) 0x5a;
    }

    /** Overwrites the length word of the frame at {@code position}. */
    void putLengthWord(long position, int value) {
        little(segmentOf(position)).putInt(offset(position) + RecordDescriptor.LENGTH_OFFSET, value);
    }

    int lengthWord(long position) {
        return little(segmentOf(position)).getInt(offset(position) + RecordDescriptor.LENGTH_OFFSET);
    }

    /** Flips bits of the stored checksum of the frame at {@code position}. */
    void flipChecksum(long position) {
        segmentOf(position)[offset(position) + RecordDescriptor.CRC_OFFSET] ^= (byte) 0x5a;
    }

    /** Sets the first padding byte after the record at {@code position} to a non-zero value. */
    void dirtyPadding(long position) {
        int frame = RecordDescriptor.frameLength(payloadLength(position));
        segmentOf(position)[offset(position) + frame] = 1;
    }

    /** Zeroes everything from {@code position} to the end of its segment: what a crash leaves of writes that never reached the device. */
    void zeroFrom(long position) {
        byte[] bytes = segmentOf(position);
        Arrays.fill(bytes, offset(position), bytes.length, (byte) 0);
    }

    /** Writes a durable mark (with its valid checksum) into segment {@code segmentId}'s header. */
    void setDurableMark(long segmentId, long mark) {
        SegmentHeader.writeDurableMark(ByteBuffer.wrap(segment(segmentId)), segmentId, mark);
    }

    /** Flips a bit of segment {@code segmentId}'s magic: its header no longer verifies. */
    void damageHeader(long segmentId) {
        segment(segmentId)[SegmentDescriptor.MAGIC_OFFSET] ^= 1;
    }

    /** Rewrites segment {@code segmentId}'s base position, with a header checksum that verifies. */
    void setBase(long segmentId, long base) {
        byte[] bytes = segment(segmentId);
        ByteBuffer header = little(bytes);
        header.putLong(SegmentDescriptor.BASE_POSITION_OFFSET, base);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, SegmentDescriptor.HEADER_CRC_COVERS);
        header.putInt(SegmentDescriptor.HEADER_CRC_OFFSET, (int) crc.getValue());
    }

    void deleteSegment(long segmentId) {
        assertNotNull(files.remove(SegmentDescriptor.fileName(segmentId)), "segment " + segmentId);
    }

    private byte[] segment(long segmentId) {
        byte[] bytes = files.get(SegmentDescriptor.fileName(segmentId));
        if (bytes == null) {
            throw new IllegalArgumentException("no segment " + segmentId);
        }
        return bytes;
    }

    private byte[] segmentOf(long position) {
        return segment(position / SEGMENT_SIZE);
    }

    private static int offset(long position) {
        return (int) (position % SEGMENT_SIZE);
    }

    private static ByteBuffer little(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    // ---- walking ----

    /** Walks the damaged files under {@code policy} as recovery on open does, and records what happened. */
    Walk walk(ReplayPolicy policy) {
        SimulatedDisk disk = SimulatedDisk.holding(files);
        Walk walk = new Walk(policy);
        try {
            List<SegmentRef> segments = SegmentRef.list(disk, DIRECTORY);
            long tailFrom = LogRecovery.highestDurableMark(segments, disk);
            walk.end = new LogWalker(disk, policy, walk).walk(segments, 0, Long.MAX_VALUE, tailFrom,
                    (position, bytes, payloadOffset, payloadLength) -> {
                        byte[] payload = new byte[payloadLength];
                        bytes.get(payloadOffset, payload);
                        assertArrayEquals(pristine.records.get(position), payload, "the payload handed over at " + position);
                        walk.handedOver.add(position);
                    });
        } catch (CorruptLogException e) {
            walk.refused = e;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return walk;
    }

    /**
     * Runs recovery on open over the damaged files: what the listener heard, or what recovery
     * threw (then {@link Walk#refused}); {@link Walk#end} holds where appends resume.
     */
    Walk recover(ReplayPolicy policy) {
        SimulatedDisk disk = SimulatedDisk.holding(files);
        Walk walk = new Walk(policy);
        try {
            LogRecovery.Recovered recovered = LogRecovery.recover(DIRECTORY, disk, SEGMENT_SIZE,
                    PosixFilePermissions.fromString("rw-------"), policy, walk);
            recovered.tail().file().close();
            if (recovered.next() != null) {
                recovered.next().file().close();
            }
            walk.end = new LogWalker.End(recovered.endPosition(), -1, recovered.firstFreeOffset(), true);
        } catch (CorruptLogException e) {
            walk.refused = e;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return walk;
    }

    /** One report to the listener. */
    record Report(Damage damage, long position, String reason, String action) {
    }

    /** What one walk did: the records it handed over, the reports, and where it ended or what it threw. */
    static final class Walk implements CorruptionListener {
        final ReplayPolicy policy;
        final List<Long> handedOver = new ArrayList<>();
        final List<Report> reports = new ArrayList<>();
        LogWalker.End end;
        CorruptLogException refused;

        Walk(ReplayPolicy policy) {
            this.policy = policy;
        }

        @Override
        public void onCorruption(Path file, long offset, long position, Damage damage, String reason, String action) {
            reports.add(new Report(damage, position, reason, action));
        }

        @Override
        public void onCorruption(Path file, long offset, long position, String reason, String action) {
            fail(policy + ": a report without its kind of damage: " + reason);
        }

        /** The walk threw {@code damage} at {@code position}, its reason naming {@code reason}, after no report. */
        Walk assertRefused(Damage damage, long position, String reason) {
            assertNotNull(refused, () -> policy + ": expected " + damage + " at " + position + " to be refused; the walk ended at "
                    + (end == null ? "?" : end.position()) + " with reports " + reports);
            assertEquals(damage, refused.damage(), () -> policy + ": the kind of " + refused.getMessage());
            assertEquals(position, refused.position(), () -> policy + ": the position of " + refused.getMessage());
            assertTrue(refused.reason().contains(reason), () -> policy + ": the reason of " + refused.getMessage());
            assertEquals(List.of(), reports, () -> policy + ": reports before the refusal");
            return this;
        }

        /** The walk went to its end, at {@code endPosition}, and reported exactly {@code expected}, in order. */
        Walk assertEndsAt(long endPosition, Report... expected) {
            assertNull(refused, () -> policy + ": refused: " + refused.getMessage());
            assertEquals(expected.length, reports.size(), () -> policy + ": reports " + reports);
            for (int i = 0; i < expected.length; i++) {
                Report want = expected[i];
                Report got = reports.get(i);
                String what = policy + ": report " + i + " " + got;
                assertEquals(want.damage(), got.damage(), what);
                assertEquals(want.position(), got.position(), what);
                assertTrue(got.reason().contains(want.reason()), what + " should name " + want.reason());
                assertTrue(got.action().contains(want.action()), what + " should say " + want.action());
            }
            assertEquals(endPosition, end.position(), () -> policy + ": where the log ends");
            return this;
        }

        /** Exactly {@code positions} were handed over, in that order. */
        Walk assertHandedOver(List<Long> positions) {
            assertEquals(positions.size(), handedOver.size(), () -> policy + ": records handed over");
            assertEquals(positions, handedOver, () -> policy + ": the positions handed over");
            return this;
        }
    }
}
