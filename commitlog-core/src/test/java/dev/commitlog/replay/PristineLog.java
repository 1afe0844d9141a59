package dev.commitlog.replay;

import dev.commitlog.AppendClaim;
import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SimulatedDisk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * The log every fuzz input starts from, written once by the engine (Batch mode, 64 KiB segments)
 * onto a {@link SimulatedDisk} and closed cleanly: three segments of records from 0 bytes to 8 KiB,
 * an aborted claim, two end markers, and the empty segment the allocator had prepared. Inputs copy
 * its files and mutate the copies.
 *
 * <p>{@link #recycled()} is the same kind of log written with {@code commitlog_recycle_segments}
 * at 1 and one discard: segment 0 went, and segment 3, the tail, was made from its file (salt 1),
 * so past its records it holds segment 0's frames. Its files are segments 1 to 4.
 */
final class PristineLog {
    static final int SEGMENT_SIZE = 64 * 1024;
    private static final PristineLog INSTANCE = write(false);
    private static final PristineLog RECYCLED = write(true);

    /** Segment file name to contents, oldest first. */
    final NavigableMap<String, byte[]> files;
    /** Every record appended: log position to payload. */
    final NavigableMap<Long, byte[]> records;
    /** The durable position when the log was closed: where a live log's replay stops. */
    final long endPosition;

    private PristineLog(NavigableMap<String, byte[]> files, NavigableMap<Long, byte[]> records, long endPosition) {
        this.files = Collections.unmodifiableNavigableMap(files);
        this.records = Collections.unmodifiableNavigableMap(records);
        this.endPosition = endPosition;
    }

    static PristineLog get() {
        return INSTANCE;
    }

    /** The log whose tail is a reused file with its former life's frames past its records. */
    static PristineLog recycled() {
        return RECYCLED;
    }

    /** A fresh copy of the files, for one input to mutate. */
    TreeMap<String, byte[]> copyOfFiles() {
        TreeMap<String, byte[]> copy = new TreeMap<>();
        files.forEach((name, bytes) -> copy.put(name, bytes.clone()));
        return copy;
    }

    /** The log position of byte 0 of a pristine file (segments are contiguous from 0). */
    long basePosition(String file) {
        return SegmentDescriptor.parseId(file) * SEGMENT_SIZE;
    }

    /** Offsets in {@code file} where a pristine frame starts or ends: the places worth forging. */
    List<Integer> frameOffsets(String file) {
        long base = basePosition(file);
        List<Integer> offsets = new ArrayList<>();
        offsets.add(SegmentDescriptor.SEGMENT_HEADER_LENGTH);
        for (Map.Entry<Long, byte[]> record : records.subMap(base, base + SEGMENT_SIZE).entrySet()) {
            int offset = (int) (record.getKey() - base);
            offsets.add(offset);
            offsets.add(offset + RecordDescriptor.alignedFrameLength(record.getValue().length));
        }
        return offsets;
    }

    private static PristineLog write(boolean recycled) {
        try {
            Path lockDirectory = Files.createTempDirectory("commitlog-fuzz-pristine");
            try {
                return write(lockDirectory, recycled);
            } finally {
                try (Stream<Path> files = Files.walk(lockDirectory)) {
                    for (Path path : files.sorted(Collections.reverseOrder()).toList()) {
                        Files.delete(path);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static PristineLog write(Path lockDirectory, boolean recycled) throws IOException {
        SimulatedDisk disk = new SimulatedDisk();
        NavigableMap<Long, byte[]> records = new TreeMap<>();
        Random random = new Random(20_26_04_01);
        CommitLogConfig config = CommitLogConfig.builder(lockDirectory).syncMode(SyncMode.BATCH).segmentSize(SEGMENT_SIZE)
                // A mark with every flush: on a timer, a completed segment's mark would depend on when the
                // timer fell, and a fuzz input saved as a finding would replay over a different image.
                .durableMarkInterval(Duration.ZERO).recycleSegments(recycled ? 1 : 0).build();
        long first = recycled ? SEGMENT_SIZE : 0; // the base of the oldest segment left
        long end;
        try (CommitLog log = CommitLog.open(config, disk, (file, offset, position, reason, action) -> {
            throw new AssertionError("pristine log damaged at " + position + ": " + reason);
        })) {
            boolean discarded = !recycled;
            for (int i = 0; log.durablePosition() < first + 2L * SEGMENT_SIZE + SEGMENT_SIZE / 3; i++) {
                if (!discarded && log.durablePosition() > first + SEGMENT_SIZE / 2) {
                    log.discardUpTo(log.durablePosition()); // segment 0 becomes the spare segment 3 is made from
                    awaitSpare(disk); // else, late on a busy machine, segment 3 would be made new and 4 from the spare
                    discarded = true;
                }
                if (i == 7) {
                    AppendClaim claim = new AppendClaim();
                    log.claim(24, claim).writeLong(42);
                    claim.abort(); // an aborted frame, which replay must skip
                    continue;
                }
                byte[] payload = new byte[random.nextInt(10) == 0 ? 2_000 + random.nextInt(6_000) : random.nextInt(200)];
                random.nextBytes(payload);
                records.put(log.append(payload, 0, payload.length), payload);
            }
            end = log.durablePosition();
            awaitPreparedSegment(disk, SegmentDescriptor.fileName(end / SEGMENT_SIZE + 1));
        }
        NavigableMap<String, byte[]> files = new TreeMap<>();
        for (String name : disk.fileNames()) {
            if (SegmentDescriptor.parseId(name) >= 0) {
                files.put(name, disk.durableBytes(name));
            }
        }
        if (recycled && (files.firstKey().equals(SegmentDescriptor.fileName(0)) || ByteBuffer.wrap(files.get(SegmentDescriptor.fileName(3)))
                .order(ByteOrder.LITTLE_ENDIAN).getInt(SegmentDescriptor.SALT_OFFSET) != 1)) {
            throw new AssertionError("the recycled pristine log is not segments 1 to 4 with a reused tail: " + files.keySet());
        }
        return new PristineLog(files, new TreeMap<>(records.tailMap(first, true)), end);
    }

    /** Segment retirement is asynchronous: waits until a discarded file has become a spare. */
    private static void awaitSpare(SimulatedDisk disk) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (disk.fileNames().stream().noneMatch(name -> name.endsWith(SegmentDescriptor.RECYCLE_SUFFIX))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no discarded segment became a spare within 30 s: " + disk.fileNames());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /**
     * The allocator prepares the segment after the tail in the background; without this wait the
     * image would hold it or not by the timing of the close.
     */
    private static void awaitPreparedSegment(SimulatedDisk disk, String name) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (disk.durableBytes(name) == null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the allocator did not prepare " + name + " within 30 s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
