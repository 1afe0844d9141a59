package dev.commitlog.replay;

import static dev.commitlog.format.SegmentDescriptor.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.CorruptLogException;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.segment.SegmentHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * The bugs {@link ReplayFuzzTest} and {@link SectionedReplayFuzzTest} found, one named test each,
 * on hand-made damage to a {@link PristineLog}. Each failed before its fix.
 */
class FuzzFindingsTest {
    private static final Path DIRECTORY = Path.of("/findings");
    private final PristineLog pristine = PristineLog.get();

    /** A copy of segment 0 under a later name, header made consistent: its positions were replayed twice, backwards. */
    @Test
    void aSegmentOverlappingEarlierPositionsIsSkippedNotReplayedAgain() throws IOException {
        TreeMap<String, byte[]> files = pristine.copyOfFiles();
        files.remove(fileName(3)); // the prepared empty segment
        byte[] copy = files.get(fileName(0)).clone();
        setHeaderField(copy, SEGMENT_ID_OFFSET, 3);
        files.put(fileName(3), copy);

        List<Long> positions = new ArrayList<>();
        List<String> reports = new ArrayList<>();
        new Replayer(SimulatedDisk.holding(files), ReplayPolicy.SKIP_CORRUPT, (file, offset, position, reason, action) -> reports.add(reason))
                .replay(DIRECTORY, 0, Long.MAX_VALUE, (position, payload) -> positions.add(position));
        assertEquals(new ArrayList<>(pristine.records.keySet()), positions, "each record once, in order");
        assertTrue(reports.stream().anyMatch(r -> r.contains("inside positions an earlier segment already holds")), reports.toString());

        // Under the default policy it is corruption, named (here the copy stands in for segment 1).
        byte[] asSegmentOne = copy.clone();
        setHeaderField(asSegmentOne, SEGMENT_ID_OFFSET, 1);
        files.put(fileName(1), asSegmentOne);
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> new Replayer(SimulatedDisk.holding(files),
                ReplayPolicy.TOLERATE_TAIL, (file, offset, position, reason, action) -> { })
                .replay(DIRECTORY, 0, pristine.endPosition, (position, payload) -> { }));
        assertEquals(fileName(1), e.file().getFileName().toString());
        assertEquals(PristineLog.SEGMENT_SIZE, e.position());
    }

    /** The durable mark of a segment the walk skips made each reopen add a segment (recovery was not idempotent). */
    @Test
    void theMarkOfASkippedSegmentDoesNotMoveTheEndOnEveryReopen() throws IOException {
        TreeMap<String, byte[]> files = pristine.copyOfFiles();
        files.remove(fileName(2));
        files.remove(fileName(3));
        setHeaderField(files.get(fileName(1)), BASE_POSITION_OFFSET, PristineLog.SEGMENT_SIZE - 2); // overlaps segment 0
        SimulatedDisk disk = SimulatedDisk.holding(files);

        long first = appendPosition(recover(disk, ReplayPolicy.SKIP_CORRUPT));
        long second = appendPosition(recover(disk, ReplayPolicy.SKIP_CORRUPT));
        long third = appendPosition(recover(disk, ReplayPolicy.SKIP_CORRUPT));
        assertEquals(first, second);
        assertEquals(first, third);
        assertEquals(PristineLog.SEGMENT_SIZE + SEGMENT_HEADER_LENGTH, first, "appends resume right after segment 0");
    }

    /** A durable mark past its own segment (valid checksum) turned the unwritten tail into corruption: open refused. */
    @Test
    void aDurableMarkOutsideItsSegmentIsIgnored() throws IOException {
        TreeMap<String, byte[]> files = pristine.copyOfFiles();
        ByteBuffer header = ByteBuffer.wrap(files.get(fileName(0))).order(ByteOrder.LITTLE_ENDIAN);
        long mark = pristine.endPosition + 4_096;
        header.putLong(DURABLE_MARK_OFFSET, mark).putInt(DURABLE_MARK_CRC_OFFSET, SegmentHeader.durableMarkCrc(0, mark));

        LogRecovery.Recovered recovered = recover(SimulatedDisk.holding(files), ReplayPolicy.TOLERATE_TAIL);
        assertEquals(pristine.endPosition, appendPosition(recovered), "the log ends where it did");
        assertEquals(pristine.records.size(), recovered.records());
    }

    /**
     * The segment prepared after the tail, a reused file whose records were cut off, with its header
     * rewritten (valid checksum, no mark) naming salt 0, below the salt those records were written
     * under. Recovery renewed it with "one above" the salt it read, the very salt of those records,
     * so they verified again past the header of a segment the log was about to roll into.
     */
    @Test
    void aPreparedSegmentWhoseHeaderNamesAnEarlierSaltIsNotRenewedIntoALifeItHad() throws IOException {
        PristineLog recycled = PristineLog.recycled();
        TreeMap<String, byte[]> files = recycled.copyOfFiles();
        files.remove(fileName(4));
        byte[] tail = files.get(fileName(2));
        long tailBase = ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN).getLong(BASE_POSITION_OFFSET);
        ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN).putLong(DURABLE_MARK_OFFSET, tailBase)
                .putInt(DURABLE_MARK_CRC_OFFSET, SegmentHeader.durableMarkCrc(2, tailBase));
        Arrays.fill(tail, SEGMENT_HEADER_LENGTH, tail.length, (byte) 0); // the log now ends at segment 2's first frame
        byte[] reused = files.get(fileName(3));
        int salt = ByteBuffer.wrap(reused).order(ByteOrder.LITTLE_ENDIAN).getInt(SALT_OFFSET);
        assertNotEquals(0, salt, "precondition: segment 3 is a reused file");
        ByteBuffer forged = SegmentHeader.encode(3, tailBase + PristineLog.SEGMENT_SIZE, PristineLog.SEGMENT_SIZE, salt - 1);
        forged.get(0, reused, 0, SEGMENT_HEADER_LENGTH);
        SimulatedDisk disk = SimulatedDisk.holding(files);

        LogRecovery.Recovered recovered = LogRecovery.recover(DIRECTORY, disk, PristineLog.SEGMENT_SIZE,
                PosixFilePermissions.fromString("rw-------"), ReplayPolicy.SKIP_CORRUPT, (file, offset, position, reason, action) -> { });
        recovered.tail().file().close();
        assertNotNull(recovered.next(), "segment 3 is kept as the prepared segment");
        recovered.next().file().close();
        assertEquals(tailBase + SEGMENT_HEADER_LENGTH, appendPosition(recovered));

        FrameScanner scanner = new FrameScanner();
        scanner.reset(ByteBuffer.wrap(disk.durableBytes(fileName(3))), tailBase + PristineLog.SEGMENT_SIZE);
        assertEquals(FrameScanner.Kind.UNWRITTEN, scanner.scan(SEGMENT_HEADER_LENGTH), "no frame at segment 3's first offset");
        assertEquals(-1, scanner.resync(SEGMENT_HEADER_LENGTH), "no frame of an earlier life verifies anywhere in segment 3");
    }

    /**
     * SectionedReplayFuzzTest (seeded input 192): the compressed, encrypted log's prepared segment
     * holds a non-zero word at offset 64, where its first section would start (media damage; a
     * clean close leaves zeros there). Recovery decoded nothing from it, so its plain image was all
     * zeros and it was kept as it was; it sealed the tail and went on in that segment. The bytes at
     * 64 then read as a torn section of the new tail: the next open under {@code strict} refused
     * a log the previous open had accepted, with nothing appended in between.
     */
    @Test
    void aPreparedSectionedSegmentWithBytesWhereItsFirstSectionGoesIsRenewed() throws IOException {
        PristineLog sectioned = PristineLog.sectioned(PristineLog.Settings.LZ4_AES_GCM, false);
        TreeMap<String, byte[]> files = sectioned.copyOfFiles();
        String prepared = files.lastKey();
        ByteBuffer.wrap(files.get(prepared)).order(ByteOrder.LITTLE_ENDIAN).putLong(SEGMENT_HEADER_LENGTH, 0x4487bb5ba7c3fe7fL);
        SimulatedDisk disk = SimulatedDisk.holding(files);
        StorageLayer storage = sectioned.storage(disk);

        long first = appendPosition(recover(storage, ReplayPolicy.STRICT));
        assertEquals(sectioned.basePosition(prepared) + SEGMENT_HEADER_LENGTH, first, "the sealed tail's successor is the prepared segment");
        ByteBuffer stored = ByteBuffer.wrap(disk.durableBytes(prepared)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0, stored.getLong(SEGMENT_HEADER_LENGTH), "the zero word where its first section goes");
        assertEquals(first, appendPosition(recover(storage, ReplayPolicy.STRICT)), "the next open accepts the log as it is");
    }

    private static LogRecovery.Recovered recover(StorageLayer disk, ReplayPolicy policy) throws IOException {
        LogRecovery.Recovered recovered = LogRecovery.recover(DIRECTORY, disk, PristineLog.SEGMENT_SIZE,
                PosixFilePermissions.fromString("rw-------"), policy, (file, offset, position, reason, action) -> { });
        recovered.tail().file().close();
        return recovered;
    }

    private static long appendPosition(LogRecovery.Recovered recovered) {
        return recovered.tail().basePosition() + recovered.firstFreeOffset();
    }

    /** Rewrites a 64-bit header field and the header checksum, so that the header verifies. */
    private static void setHeaderField(byte[] segment, int offset, long value) {
        ByteBuffer header = ByteBuffer.wrap(segment).order(ByteOrder.LITTLE_ENDIAN);
        header.putLong(offset, value);
        CRC32C crc = new CRC32C();
        crc.update(segment, 0, HEADER_CRC_COVERS);
        header.putInt(HEADER_CRC_OFFSET, (int) crc.getValue());
    }
}
