package dev.commitlog.replay;

import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener;
import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.disk.ZeroFill;
import dev.commitlog.format.FrameChecksum;
import dev.commitlog.format.RecordDescriptor;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.segment.Segment;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentHeaderException;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens an existing log directory for appending: finds where valid data ends, cuts off the torn
 * or unflushed tail after it, and hands back the segment to append to next.
 *
 * <p>What it guarantees on return: every segment file left in the directory is flushed (a process
 * that was killed may have left records in the page cache that were never flushed; they are
 * flushed now, before anything is called durable); appends go on where no frame of this life of
 * the file follows (a tail of salt 0 zeroed past the end; a reused tail renewed, or sealed and
 * followed by the next segment) and the durable mark is the end; files that only held data past
 * the end are deleted, and the directory is synced.
 *
 * <p>What it rewrites: the bytes above the durable marks of the two segments that can hold the
 * last records (the tail and the one before it); the others are only synced. Below a mark a
 * completed sync has put the bytes on the device; above it recovery cannot tell bytes on the device
 * from bytes only in the page cache (or in a page whose write-back failed and was then marked
 * clean, fsyncgate), so it writes them again and syncs them. A mark is a log position, so it
 * vouches for the segments before its own too: the tail's mark covers the segment before it once
 * the tail's first flush completed, even where that segment's own mark lags (in Periodic mode, by
 * up to a sync period's worth of data). Rewriting every segment whole, as recovery once did, made
 * an open of a 200 MiB log write 268 MB and take about 300 ms warm here.
 */
public final class LogRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(LogRecovery.class);

    /**
     * The result: the segment to append to and the offset of its first free byte; the segments kept,
     * the tail last; and the segment after the tail, if one was prepared for it (zeroed on the
     * device, not part of the log until the writer rolls over into it), or null.
     */
    public record Recovered(Segment tail, int firstFreeOffset, long endPosition, long records, long damaged,
                            List<SegmentRef> segments, Segment next) {
    }

    private LogRecovery() {
    }

    public static Recovered recover(Path directory, StorageLayer storage, int segmentSize, Set<PosixFilePermission> permissions,
                                    ReplayPolicy policy, CorruptionListener listener) throws IOException {
        boolean directoryChanged = deleteTemporaryFiles(directory, storage);
        List<SegmentRef> segments = SegmentRef.list(storage, directory);
        long tailFrom = highestDurableMark(segments, storage);

        LogWalker walker = new LogWalker(storage, policy, listener)
                .reportingProgress(ReplayProgress.logging(LOG, "commit log recovery of " + directory));
        LogWalker.End end = walker.walk(segments, 0, Long.MAX_VALUE, tailFrom, (position, bytes, offset, length) -> { });
        // Synced once, in every segment kept: below the highest mark, and below the end (a policy
        // may end the log at damage under a mark, and the files past the end are deleted).
        long vouched = Math.min(tailFrom, end.position());

        List<SegmentRef> kept = new ArrayList<>(segments);
        SegmentFile tailFile = null;
        Segment next = null;
        try {
            Segment tail;
            SegmentHeader tailHeader = null;
            int firstFree;
            boolean sealed = false;
            if (end.insideSegment()) {
                SegmentRef ref = segments.get(end.segmentIndex());
                tailFile = storage.open(ref.path(), true);
                SegmentHeader header = SegmentHeader.decode(tailFile.buffer(), ref.id(), tailFile.size());
                List<SegmentRef> after = kept.subList(end.segmentIndex() + 1, kept.size());
                checkHeadersAfterEnd(after, end.position(), policy, listener, storage);
                next = dropAfterEnd(after, header, end.position(), segmentSize, storage);
                directoryChanged |= after.size() > (next == null ? 0 : 1);
                after.clear();
                int unsynced = Math.min(unsyncedFrom(header, vouched), end.offset());
                if (tailFile.sectioned()) {
                    requireEndAtSections(tailFile, end);
                    if (end.offset() == SegmentDescriptor.SEGMENT_HEADER_LENGTH) {
                        header = renew(tailFile, header); // no record of this life: a new salt voids every section
                    } else {
                        // Its sections may be followed by an earlier life's, or a torn one: a new
                        // section there would have to start below them. Appends go on in the next segment.
                        seal(tailFile, header, end.offset(), unsynced);
                        sealed = true;
                    }
                } else if (!header.mayHoldStaleBytes()) {
                    // Zeros past the end, as when the file was created: only a torn or cut tail is rewritten.
                    int zeroedTo = ZeroFill.from(tailFile, end.offset());
                    tailFile.flush(unsynced, Math.max(end.offset(), zeroedTo));
                } else if (end.offset() == SegmentDescriptor.SEGMENT_HEADER_LENGTH) {
                    header = renew(tailFile, header); // no record of this life: a new salt, and the file's bytes are all stale
                } else {
                    seal(tailFile, header, end.offset(), unsynced);
                    sealed = true;
                }
                tail = new Segment(header.segmentId(), header.basePosition(), tailFile, end.offset());
                tailHeader = header;
                firstFree = end.offset();
            } else {
                long nextId = segments.isEmpty() ? 0 : segments.get(segments.size() - 1).id() + 1;
                Path path = directory.resolve(SegmentDescriptor.fileName(nextId));
                tailFile = storage.create(path, segmentSize, SegmentHeader.encode(nextId, end.position(), segmentSize), permissions);
                tail = new Segment(nextId, end.position(), tailFile, SegmentDescriptor.SEGMENT_HEADER_LENGTH);
                firstFree = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
                kept.add(new SegmentRef(nextId, path));
            }
            flushAll(kept, vouched, storage);
            if (tailHeader != null) {
                markEnd(tail, tailHeader, end.position()); // after every segment's flush: the mark vouches for all below it
            }
            if (sealed) {
                // Appends go on in the next segment: the prepared one if it was kept, else a new one.
                tail.file().close();
                tailFile = null;
                if (next != null) {
                    tail = next;
                    tailFile = next.file();
                    next = null;
                } else {
                    long nextId = tailHeader.segmentId() + 1;
                    Path path = directory.resolve(SegmentDescriptor.fileName(nextId));
                    tailFile = storage.create(path, segmentSize, SegmentHeader.encode(nextId, tailHeader.endPosition(), segmentSize),
                            permissions);
                    tail = new Segment(nextId, tailHeader.endPosition(), tailFile, SegmentDescriptor.SEGMENT_HEADER_LENGTH);
                }
                kept.add(new SegmentRef(tail.id(), tail.file().path()));
                firstFree = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
            }
            tail.pretouch();
            if (directoryChanged) {
                storage.syncDirectory(directory);
            }
            if (!segments.isEmpty()) {
                LOG.info("commit log recovered {}: {} records in {} segments, appending at position {}{}", directory, walker.records(),
                        kept.size(), end.position(), walker.damaged() > 0 ? " (" + walker.damaged() + " damaged frames reported)" : "");
            }
            return new Recovered(tail, firstFree, end.position(), walker.records(), walker.damaged(), List.copyOf(kept), next);
        } catch (IOException | RuntimeException | Error e) {
            if (next != null) {
                next.file().close();
            }
            if (tailFile != null) {
                tailFile.close();
            }
            throw e;
        }
    }

    /**
     * A segment file after the end of the log whose header does not verify (e.g. its id disagrees
     * with its file name: a copied or renamed file) is damage, as for any other segment
     * (docs/format.md): no crash makes one, since a segment is renamed into place only once its
     * header is synced. {@code strict} refuses to open, before anything is deleted; the other
     * policies report it to the listener, and the file is then deleted with the rest of the files
     * after the end (it cannot hold acknowledged records: the log ended before it).
     */
    public static void checkHeadersAfterEnd(List<SegmentRef> after, long end, ReplayPolicy policy, CorruptionListener listener,
                                             StorageLayer storage) throws IOException {
        for (SegmentRef ref : after) {
            String reason;
            try (SegmentFile file = storage.open(ref.path(), false)) {
                SegmentHeader.decode(file.buffer(), ref.id(), file.size());
                continue;
            } catch (SegmentHeaderException e) {
                reason = LogWalker.DAMAGED_HEADER + e.getMessage();
            }
            if (policy == ReplayPolicy.STRICT) {
                throw new CorruptLogException(ref.path(), 0, end, Damage.DAMAGED_HEADER,
                        reason + " (a file after the end of the log, at position " + end + ")",
                        "commitlog_replay_policy: strict refuses it; move the file out of the log directory (keep it for inspection), "
                                + "or open under tolerate_tail or skip_corrupt, which report it and delete it");
            }
            listener.onCorruption(ref.path(), 0, end, Damage.DAMAGED_HEADER, reason,
                    "deleted: it follows the end of the log at position " + end);
        }
    }

    /**
     * Deletes the segment files {@code after} the end of the log, which hold only data that follows
     * a hole (never acknowledged), newest first; but the first of them, if it is the one prepared to
     * follow the {@code tail}, is kept for the allocator to reuse and returned (null if not).
     */
    private static Segment dropAfterEnd(List<SegmentRef> after, SegmentHeader tail, long end, int segmentSize, StorageLayer storage)
            throws IOException {
        Segment prepared = after.isEmpty() ? null : preparedAfter(tail, after.get(0), segmentSize, storage);
        for (int i = after.size() - 1; i >= (prepared == null ? 0 : 1); i--) {
            LOG.info("commit log recovery: deleting {}: it follows the end of the log at position {} (a prepared segment, or "
                    + "unacknowledged data after a gap)", after.get(i).path(), end);
            storage.delete(after.get(i).path());
        }
        return prepared;
    }

    private static boolean deleteTemporaryFiles(Path directory, StorageLayer storage) throws IOException {
        boolean deleted = false;
        for (Path file : storage.list(directory)) {
            String name = file.getFileName().toString();
            if (name.startsWith(SegmentDescriptor.FILE_PREFIX) && name.endsWith(SegmentDescriptor.TEMP_SUFFIX)) {
                // A segment whose creation a crash interrupted: it was never renamed into place, never used.
                storage.delete(file);
                deleted = true;
            }
        }
        return deleted;
    }

    /**
     * The highest valid durable mark of the segments the walk will read: everything below it was
     * flushed once. Segments the walk skips (a bad header, or positions an earlier segment already
     * holds) do not count: a mark from a segment that is not part of the log would make every
     * reopen call the tail corruption (ReplayFuzzTest found a log that grew a segment per reopen).
     */
    public static long highestDurableMark(List<SegmentRef> segments, StorageLayer storage) throws IOException {
        long mark = 0;
        long expectedBase = -1;
        for (SegmentRef ref : segments) {
            try (SegmentFile file = storage.open(ref.path(), false)) {
                SegmentHeader header = SegmentHeader.decode(file.buffer(), ref.id(), file.size());
                if (expectedBase < 0 || header.basePosition() >= expectedBase) {
                    mark = Math.max(mark, header.durableMark());
                    expectedBase = header.endPosition();
                }
            } catch (SegmentHeaderException e) {
                // Reported by the walk, under the replay policy.
            }
        }
        return mark;
    }

    /**
     * The segment the allocator prepared to follow {@code tail}, ready to be written, or null if
     * {@code after} is not that: the next id (the walk checked the name), starting at the tail's
     * end, the configured size, and no durable mark (no flush ever entered it, so no mark of it can
     * vouch for bytes past the end); a damaged header is not it. No byte past its header may read
     * as a frame: a clean close leaves it all zeros, so it is only read (nothing is written); bytes
     * from an earlier life (records that followed a hole or a cut, a reused file's former records)
     * are voided by a new life ({@link #renew}) before the log opens. That has to happen here, not in
     * the background: once the tail's end marker is durable, a crash would let replay walk on into
     * this file and return those bytes as records. Reusing it spares an open writing and syncing a
     * new segment's worth of zeros.
     */
    private static Segment preparedAfter(SegmentHeader tail, SegmentRef after, int segmentSize, StorageLayer storage)
            throws IOException {
        SegmentFile file = storage.open(after.path(), true);
        try {
            SegmentHeader header;
            try {
                header = SegmentHeader.decode(file.buffer(), after.id(), file.size());
            } catch (SegmentHeaderException e) {
                header = null;
            }
            if (header == null || after.id() != tail.segmentId() + 1 || header.basePosition() != tail.endPosition()
                    || header.segmentSize() != segmentSize || header.durableMark() != 0) {
                file.close();
                return null;
            }
            int changedTo = ZeroFill.from(file, SegmentDescriptor.SEGMENT_HEADER_LENGTH); // in memory: the writer needs zeros
            // A sectioned file's memory holds only sections that verified: bytes at offset 64 that are
            // not the zero word decode to nothing, yet would read as a torn section once it is the tail.
            if (changedTo > SegmentDescriptor.SEGMENT_HEADER_LENGTH || file.sectionDamageAt(SegmentDescriptor.SEGMENT_HEADER_LENGTH) != null) {
                LOG.info("commit log recovery: {}, the next segment, holds {} bytes of an earlier life; a new salt voids them before "
                        + "it is reused", after.path(), changedTo - SegmentDescriptor.SEGMENT_HEADER_LENGTH);
                renew(file, header);
            }
            return new Segment(header.segmentId(), header.basePosition(), file, SegmentDescriptor.SEGMENT_HEADER_LENGTH);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /**
     * A sectioned tail can end only where its verified sections end: damage to a frame inside a
     * section that verified (its CRC and tag passed, so the frame was written so) would need the
     * section rewritten to cut there. Refused, with nothing changed.
     */
    private static void requireEndAtSections(SegmentFile tail, LogWalker.End end) {
        if (end.offset() != tail.sectionsEnd()) {
            throw new CorruptLogException(tail.path(), end.offset(), end.position(), Damage.BAD_FRAME, "the log ends inside a "
                    + "section that verified (its sections hold plain bytes up to offset " + tail.sectionsEnd() + "): a frame in it "
                    + "is damaged although its section's checks passed", "the log was not opened; nothing was changed");
        }
    }

    /**
     * Starts a new life of {@code file}: its header again with a random new salt ({@link
     * SegmentHeader#renewalSalt}) and no durable mark,
     * and the zero length word after it, written and synced; the rest of its memory zeroed, not
     * written. No frame written under an earlier salt verifies after this, so stale bytes past the
     * header (a reused file's former records, records cut off after a crash) can never be read as
     * records, and no byte of them is rewritten. The header is one sector: it is written whole or not.
     *
     * @return the new header
     */
    private static SegmentHeader renew(SegmentFile file, SegmentHeader header) throws IOException {
        ByteBuffer renewed = SegmentHeader.encode(header.segmentId(), header.basePosition(), header.segmentSize(), header.renewalSalt());
        file.buffer().put(0, renewed, 0, SegmentDescriptor.SEGMENT_HEADER_LENGTH);
        ZeroFill.from(file, SegmentDescriptor.SEGMENT_HEADER_LENGTH);
        file.flush(0, SegmentDescriptor.SEGMENT_HEADER_LENGTH + RecordDescriptor.FRAME_HEADER_LENGTH);
        return SegmentHeader.decode(file.buffer(), header.segmentId(), file.size());
    }

    /**
     * Ends a tail that may hold stale bytes with an end-of-segment marker at {@code offset}, the end
     * of the log, and makes what no mark vouches for durable with it: appends go on in the next
     * segment. Continuing in this file would let a frame of this life that a crash left past the
     * end (the same salt, at the same positions) verify again once new frames reach it; zeroing all
     * that could be stale would rewrite up to the whole file. The rest of the segment goes unused.
     */
    private static void seal(SegmentFile file, SegmentHeader header, int offset, int unsynced) throws IOException {
        int crc = new FrameChecksum().forSegment(header.version(), header.salt())
                .headerOnly(header.basePosition() + offset, RecordDescriptor.END_OF_SEGMENT);
        file.buffer().duplicate().order(ByteOrder.LITTLE_ENDIAN)
                .putInt(offset + RecordDescriptor.CRC_OFFSET, crc)
                .putInt(offset + RecordDescriptor.LENGTH_OFFSET, RecordDescriptor.END_OF_SEGMENT);
        file.flush(unsynced, offset + RecordDescriptor.END_MARKER_LENGTH);
        LOG.info("commit log recovery: {} ends at log position {}; appends go on in the next segment (the file may hold stale "
                + "bytes past the end)", file.path(), header.basePosition() + offset);
    }

    /**
     * Syncs every segment but the tail, which is flushed already. The segment before the tail may
     * hold the last records (the tail may have none yet, or was just created), so what no mark
     * vouches for in it is rewritten; every earlier one is only synced, since a flush of the
     * segment after it was claimed only once all of its own flushes had been synced, and that later
     * segment holds records. A header that does not decode (reported by the walk, under the replay
     * policy) makes its segment rewritten whole.
     *
     * @param vouched a log position below which every byte of the log was synced once
     */
    private static void flushAll(List<SegmentRef> segments, long vouched, StorageLayer storage) throws IOException {
        int tailIndex = segments.size() - 1; // the tail is the last segment kept
        for (int i = 0; i < tailIndex; i++) {
            SegmentRef ref = segments.get(i);
            try (SegmentFile file = storage.open(ref.path(), true)) {
                if (i == tailIndex - 1) {
                    file.flush(rewriteFrom(file, ref, vouched), file.size());
                } else {
                    file.flush(0, 0); // fdatasync, nothing rewritten
                }
            }
        }
    }

    private static int rewriteFrom(SegmentFile file, SegmentRef ref, long vouched) {
        try {
            return unsyncedFrom(SegmentHeader.decode(file.buffer(), ref.id(), file.size()), vouched);
        } catch (SegmentHeaderException e) {
            return 0;
        }
    }

    /**
     * The first offset of a segment that neither its own durable mark nor {@code vouched} (a mark
     * of a later segment) covers: every byte before it was synced once.
     */
    private static int unsyncedFrom(SegmentHeader header, long vouched) {
        long synced = Math.max(header.durableMark(), vouched); // a mark is 0 (none), or inside its segment's positions
        long offset = Math.min(synced - header.basePosition(), header.segmentSize());
        return (int) Math.max(SegmentDescriptor.SEGMENT_HEADER_LENGTH, offset);
    }

    /**
     * Makes the end the tail's durable mark, once everything below it is synced: damage to records
     * recovered past the old mark is then reported as corruption by a later open, not cut as a torn
     * tail (the same reason a clean close writes its exact mark). One header write and sync.
     */
    private static void markEnd(Segment tail, SegmentHeader header, long end) throws IOException {
        if (end == header.durableMark() || end - header.basePosition() <= SegmentDescriptor.SEGMENT_HEADER_LENGTH) {
            return; // exact already, or no record in the segment
        }
        tail.syncDurableMark(end, SegmentHeader.durableMarkCrc(tail.id(), end));
    }
}
