package dev.commitlog.replay;

import dev.commitlog.AppendClaim;
import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogOptions;
import dev.commitlog.SectionedLogs;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SimulatedDisk;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.section.SectionBytes;
import dev.commitlog.section.SectionDescriptor;
import dev.commitlog.section.SectionedStorageLayer;
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
import java.util.concurrent.ConcurrentHashMap;
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
 *
 * <p>{@link #sectioned} writes the same two logs with compression or encryption (format version 3),
 * in batches of one to six records (one section each), most of them JSON-like so that the codecs
 * have something to compress; the recycled one's tail holds segment 0's sections past its own. An
 * encrypted log's nonces come from {@code SecureRandom}, so its bytes differ from run to run in
 * nonces, bodies and CRCs (never in lengths or offsets).
 */
final class PristineLog {
    static final int SEGMENT_SIZE = 64 * 1024;
    /** The one key an encrypted pristine log is written under (key id 1). */
    static final KeyProvider KEYS = SectionedLogs.keys(1);
    private static final int MAX_RECORD = 16 * 1024;
    private static final PristineLog INSTANCE = write(Settings.PLAIN, false);
    private static final PristineLog RECYCLED = write(Settings.PLAIN, true);
    private static final Map<String, PristineLog> SECTIONED = new ConcurrentHashMap<>();

    /** The storage settings a pristine log is written with. */
    enum Settings {
        PLAIN(Compression.NONE, Encryption.NONE), LZ4_AES_GCM(Compression.LZ4, Encryption.AES_GCM), ZSTD(Compression.ZSTD, Encryption.NONE);

        final Compression compression;
        final Encryption encryption;

        Settings(Compression compression, Encryption encryption) {
            this.compression = compression;
            this.encryption = encryption;
        }
    }

    /** Segment file name to contents, oldest first. */
    final NavigableMap<String, byte[]> files;
    /** Every record appended: log position to payload. */
    final NavigableMap<Long, byte[]> records;
    /** The durable position when the log was closed: where a live log's replay stops. */
    final long endPosition;
    final Settings settings;

    private PristineLog(NavigableMap<String, byte[]> files, NavigableMap<Long, byte[]> records, long endPosition, Settings settings) {
        this.files = Collections.unmodifiableNavigableMap(files);
        this.records = Collections.unmodifiableNavigableMap(records);
        this.endPosition = endPosition;
        this.settings = settings;
    }

    static PristineLog get() {
        return INSTANCE;
    }

    /** The log whose tail is a reused file with its former life's frames past its records. */
    static PristineLog recycled() {
        return RECYCLED;
    }

    /** The log written with {@code settings} (not {@link Settings#PLAIN}), new or with a reused tail; written once per JVM. */
    static PristineLog sectioned(Settings settings, boolean recycled) {
        if (settings == Settings.PLAIN) {
            throw new IllegalArgumentException("settings " + settings + ": expected a compressed or encrypted one");
        }
        return SECTIONED.computeIfAbsent(settings + (recycled ? " recycled" : ""), key -> write(settings, recycled));
    }

    boolean isSectioned() {
        return settings != Settings.PLAIN;
    }

    /** The layer a reader of these files runs over: the disk itself, or sections read through it (with the key). */
    StorageLayer storage(StorageLayer disk) {
        return isSectioned() ? new SectionedStorageLayer(disk, settings.compression, 0, settings.encryption, KEYS) : disk;
    }

    /**
     * The first log position whose bytes a change at {@code offset} of {@code file} can reach: past the
     * segment header, the offset itself in a plain file; in a sectioned one, the first position of the
     * section that holds the offset (its header, body or padding), or the end of the last section for
     * an offset past them. A change inside the segment header reaches the whole segment.
     */
    long firstPositionAt(String file, int offset) {
        long base = basePosition(file);
        if (offset < SegmentDescriptor.SEGMENT_HEADER_LENGTH) {
            return base;
        }
        if (!isSectioned()) {
            return base + offset;
        }
        byte[] bytes = files.get(file);
        long logical = base + SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        for (int at : SectionBytes.sectionOffsets(bytes)) {
            if (offset < at + SectionDescriptor.sectionLength(SectionBytes.storedLength(bytes, at))) {
                return logical;
            }
            logical = SectionBytes.logicalEnd(bytes, at);
        }
        return logical;
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

    /**
     * Offsets in {@code file} where a pristine frame starts or ends (in a sectioned file: where a
     * section, its body or the zero word after the last starts): the places worth forging.
     */
    List<Integer> frameOffsets(String file) {
        long base = basePosition(file);
        List<Integer> offsets = new ArrayList<>();
        offsets.add(SegmentDescriptor.SEGMENT_HEADER_LENGTH);
        byte[] bytes = files.get(file);
        if (isSectioned() && bytes != null) { // null: a file the mutator added
            for (int at : SectionBytes.sectionOffsets(bytes)) {
                offsets.add(at + SectionDescriptor.HEADER_LENGTH);
                offsets.add((int) (at + SectionDescriptor.sectionLength(SectionBytes.storedLength(bytes, at))));
            }
            return offsets;
        }
        for (Map.Entry<Long, byte[]> record : records.subMap(base, base + SEGMENT_SIZE).entrySet()) {
            int offset = (int) (record.getKey() - base);
            offsets.add(offset);
            offsets.add(offset + RecordDescriptor.alignedFrameLength(record.getValue().length));
        }
        return offsets;
    }

    private static PristineLog write(Settings settings, boolean recycled) {
        try {
            Path lockDirectory = Files.createTempDirectory("commitlog-fuzz-pristine");
            try {
                return write(lockDirectory, settings, recycled);
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

    private static PristineLog write(Path lockDirectory, Settings settings, boolean recycled) throws IOException {
        SimulatedDisk disk = new SimulatedDisk();
        NavigableMap<Long, byte[]> records = new TreeMap<>();
        Random random = new Random(20_26_04_01);
        CommitLogConfig.Builder config = CommitLogConfig.builder(lockDirectory).syncMode(SyncMode.BATCH).segmentSize(SEGMENT_SIZE)
                // A mark with every flush: on a timer, a completed segment's mark would depend on when the
                // timer fell, and a fuzz input saved as a finding would replay over a different image.
                .durableMarkInterval(Duration.ZERO).recycleSegments(recycled ? 1 : 0);
        if (settings != Settings.PLAIN) {
            // A sectioned segment keeps room for its sections: the default record limit would not fit 64 KiB.
            config.compression(settings.compression).encryption(settings.encryption).maxRecordSize(MAX_RECORD);
        }
        CommitLogOptions.Builder options = CommitLogOptions.builder().storage(disk).noJmx().corruptionListener(
                (file, offset, position, reason, action) -> {
                    throw new AssertionError("pristine log damaged at " + position + ": " + reason);
                });
        long first = recycled ? SEGMENT_SIZE : 0; // the base of the oldest segment left
        long end;
        try (CommitLog log = CommitLog.open(config.build(), settings.encryption == Encryption.NONE ? options.build() : options.keyProvider(KEYS).build())) {
            boolean discarded = !recycled;
            // A sectioned segment can end early (its claim budget) and a batch holds up to 48 KiB, so by
            // mid-segment 1 the log could be in segment 2, and segment 3 made new as the spare appears:
            // it discards once in segment 1. Either log waits for the allocator to make segment 2 first,
            // else on a busy machine segment 2 would be made from the spare and segment 3 new.
            long discardPast = first + (settings == Settings.PLAIN ? SEGMENT_SIZE / 2 : 0);
            for (int i = 0; log.durablePosition() < first + 2L * SEGMENT_SIZE + SEGMENT_SIZE / 3; i++) {
                if (!discarded && log.durablePosition() > discardPast) {
                    awaitPreparedSegment(disk, SegmentDescriptor.fileName(2));
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
                if (settings == Settings.PLAIN) {
                    byte[] payload = payload(random, false);
                    records.put(log.append(payload, 0, payload.length), payload);
                } else {
                    byte[][] batch = new byte[1 + random.nextInt(6)][];
                    for (int r = 0; r < batch.length; r++) {
                        batch[r] = payload(random, random.nextInt(5) != 0);
                    }
                    long[] positions = log.appendBatch(batch); // one flush, so one section
                    for (int r = 0; r < batch.length; r++) {
                        records.put(positions[r], batch[r]);
                    }
                }
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
        return new PristineLog(files, new TreeMap<>(records.tailMap(first, true)), end, settings);
    }

    /** Records from 0 bytes to 8 KiB: random bytes, or (when {@code json}) JSON-like text a codec can compress. */
    private static byte[] payload(Random random, boolean json) {
        int length = random.nextInt(10) == 0 ? 2_000 + random.nextInt(6_000) : random.nextInt(200);
        if (json) {
            return SectionedLogs.json(random, random.nextInt(1_000), length);
        }
        byte[] payload = new byte[length];
        random.nextBytes(payload);
        return payload;
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
