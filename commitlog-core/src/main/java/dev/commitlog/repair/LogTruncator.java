package dev.commitlog.repair;

import static dev.commitlog.format.SegmentDescriptor.SEGMENT_HEADER_LENGTH;

import dev.commitlog.CommitLogException;
import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.disk.DirectoryLock;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.disk.ZeroFill;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.replay.FrameVisitor;
import dev.commitlog.replay.LogRecovery;
import dev.commitlog.replay.LogWalker;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentHeaderException;
import dev.commitlog.segment.SegmentRef;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.section.SectionedStorageLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a closed log at a position: the explicit way forward after corruption. Every record at or
 * after the cut position leaves the log; every record before it stays, byte for byte.
 *
 * <p>Which positions can be cut at: where a frame starts (a record's position, or the position
 * where a walk met damage), or the base position of a segment file. At a segment's base, a file
 * whose header verifies is kept, empty (so positions go on from where they were), and the cut is at
 * its first frame; a file whose header is damaged goes whole. Every frame before the cut must
 * verify, or the cut is refused naming the first damage: the log left behind must open under every
 * replay policy, {@code strict} included, and end exactly at the cut.
 *
 * <p>What it changes, in this order, so that an interruption loses nothing (run it again): under
 * the directory lock (it refuses to run against an open log), the files it will rewrite are copied
 * into the backup directory and synced; the segment files after the cut are moved there; then the
 * cut segment is zeroed from the cut on and any durable mark past the cut is lowered to it (a mark
 * past the end would make the end look like damage), and flushed. Directories are synced between
 * the steps. In a compressed or encrypted segment (format version 3) the cut falls inside a
 * section: that section is stored again holding only the bytes before the cut, with its codec and
 * cipher, and the file after it is zeroed ({@link SegmentFile#cutSections}).
 */
public final class LogTruncator {
    /**
     * What was done.
     *
     * @param position        the first position removed (the request, or the first frame of a kept empty segment)
     * @param cutFile         the segment zeroed from {@code cutOffset} on, or null when whole files went
     * @param backupDirectory where the copies and moved files are, or null when there was nothing to cut
     * @param copied          files rewritten in place (their previous contents are in the backup)
     * @param moved           files moved whole into the backup
     * @param recordsKept     verified records before the cut
     */
    public record Result(long position, Path cutFile, int cutOffset, Path backupDirectory, List<Path> copied, List<Path> moved,
                         long recordsKept) {
        public boolean changed() {
            return backupDirectory != null;
        }
    }

    /** Where to cut: in segment {@code index}; at {@code offset} in it, or (offset 0) before it, whole. */
    private record Cut(int index, int offset, long position) {
    }

    private static final FrameVisitor IGNORE_RECORDS = (position, bytes, offset, length) -> { };
    private static final CorruptionListener IGNORE_DAMAGE = (file, offset, position, reason, action) -> { };

    private final StorageLayer storage;

    public LogTruncator() {
        this(new MappedStorageLayer());
    }

    /** Over {@code storage}, for logs never encrypted. */
    public LogTruncator(StorageLayer storage) {
        this(storage, null);
    }

    /**
     * Over {@code storage}, reading compressed and encrypted segments (format version 3) with
     * {@code keys}: a section the cut falls in is stored again as it was stored, encrypted under
     * the provider's current key.
     *
     * @param keys the log's keys, or null for a log never encrypted
     */
    public LogTruncator(StorageLayer storage, KeyProvider keys) {
        this.storage = new SectionedStorageLayer(storage, Compression.NONE, 0, Encryption.NONE, keys); // files are read as their headers say
    }

    /**
     * Cuts the log in {@code directory} so that {@code position} is the first position removed,
     * keeping what it removes in {@code backupDirectory} (created; must be empty if it exists).
     *
     * @throws CommitLogException when the cut is refused (nothing changed), saying why
     * @throws IOException        when the log is open (locked) or a file operation fails
     */
    public Result truncateAfter(Path directory, long position, Path backupDirectory) throws IOException {
        DirectoryLock lock;
        try {
            lock = DirectoryLock.acquire(directory);
        } catch (IOException e) {
            throw new IOException("refused, nothing changed: " + e.getMessage() + " (truncate only a closed log: stop the node first)", e);
        }
        try {
            return truncateLocked(directory, position, backupDirectory);
        } finally {
            lock.closeLeavingNoTrace(); // a refused cut changes nothing, not even a lock file
        }
    }

    private Result truncateLocked(Path directory, long position, Path backupDirectory) throws IOException {
        List<SegmentRef> segments = SegmentRef.list(storage, directory);
        if (segments.isEmpty()) {
            throw new CommitLogException("no segment files (" + SegmentDescriptor.FILE_PREFIX + "*" + SegmentDescriptor.FILE_SUFFIX
                    + ") in " + directory);
        }
        List<SegmentHeader> headers = headers(segments);
        Cut cut = locate(segments, headers, position);
        long recordsKept = checkBefore(segments, headers, cut);

        int kept = cut.offset() > 0 ? cut.index() + 1 : cut.index();
        List<Path> rewrite = new ArrayList<>();
        for (int i = 0; i < kept; i++) {
            boolean zero = i == cut.index() && holdsData(segments.get(i), cut.offset());
            if (zero || headers.get(i).durableMark() > cut.position()) {
                rewrite.add(segments.get(i).path());
            }
        }
        List<Path> move = segments.subList(kept, segments.size()).stream().map(SegmentRef::path).toList();
        Path cutFile = cut.offset() > 0 ? segments.get(cut.index()).path() : null;
        if (rewrite.isEmpty() && move.isEmpty()) {
            return new Result(cut.position(), cutFile, cut.offset(), null, List.of(), List.of(), recordsKept);
        }

        BackupDirectory backup = BackupDirectory.create(backupDirectory, directory, storage);
        for (Path file : rewrite) {
            backup.copy(file);
        }
        backup.sync();
        for (Path file : move) {
            backup.move(file);
        }
        // Both directories before any byte of the log changes: a moved file must not come back after a
        // crash into a directory whose cut segment then ends before it (recovery would delete it).
        backup.sync();
        storage.syncDirectory(directory);
        for (int i = 0; i < kept; i++) {
            if (rewrite.contains(segments.get(i).path())) {
                cutAndLowerMark(segments.get(i), i == cut.index() ? cut.offset() : -1, cut.position());
            }
        }
        checkAfter(segments.subList(0, kept), cut, backupDirectory);
        return new Result(cut.position(), cutFile, cut.offset(), backupDirectory, rewrite, move, recordsKept);
    }

    /** Each segment's header, or null where it is damaged. */
    private List<SegmentHeader> headers(List<SegmentRef> segments) throws IOException {
        List<SegmentHeader> headers = new ArrayList<>();
        for (SegmentRef ref : segments) {
            try (SegmentFile file = storage.open(ref.path(), false)) {
                headers.add(SegmentHeader.decode(file.buffer(), ref.id(), file.size()));
            } catch (SegmentHeaderException e) {
                headers.add(null);
            }
        }
        return headers;
    }

    private static Cut locate(List<SegmentRef> segments, List<SegmentHeader> headers, long position) {
        long nextBase = -1; // the previous segment's end: the base of this one if its header is damaged
        long start = -1;
        long end = -1;
        for (int i = 0; i < segments.size(); i++) {
            SegmentHeader header = headers.get(i);
            if (header == null) {
                if (i == 0 && position == 0) {
                    // The first file's base is unknown (verify reports its damage at 0): cutting at 0 moves every file aside.
                    return new Cut(0, 0, 0);
                }
                if (position == nextBase) {
                    return new Cut(i, 0, position); // a damaged file goes whole; the one before it ends at its base
                }
                nextBase = -1;
                continue;
            }
            start = start < 0 ? header.basePosition() : start;
            if (position >= header.basePosition() && position < header.endPosition()) {
                long offset = position - header.basePosition();
                if (offset == 0) {
                    // The segment's base: keep the file empty, so that positions go on from here after reopening.
                    return new Cut(i, SEGMENT_HEADER_LENGTH, position + SEGMENT_HEADER_LENGTH);
                }
                if (offset < SEGMENT_HEADER_LENGTH) {
                    throw new CommitLogException("position " + position + " is inside the header of " + segments.get(i).path().getFileName()
                            + "; its first frame is at position " + (header.basePosition() + SEGMENT_HEADER_LENGTH));
                }
                return new Cut(i, (int) offset, position);
            }
            nextBase = header.endPosition();
            end = nextBase;
        }
        if (position == nextBase) {
            return new Cut(segments.size(), 0, position); // the very end of the last segment: nothing after it
        }
        if (start < 0) {
            throw new CommitLogException("every segment header in the log is damaged, so no position can be located; run verify");
        }
        throw new CommitLogException("position " + position + " is in no segment file of the log (the first starts at position " + start
                + ", the last readable one ends at " + end + ")");
    }

    /** Walks everything before the cut strictly: it must all verify and end exactly at the cut. */
    private long checkBefore(List<SegmentRef> segments, List<SegmentHeader> headers, Cut cut) throws IOException {
        boolean inside = cut.offset() > 0;
        List<SegmentRef> walked = segments.subList(0, inside ? cut.index() + 1 : cut.index());
        long limit = inside ? cut.position() : Long.MAX_VALUE;
        LogWalker walker = new LogWalker(storage, ReplayPolicy.STRICT, IGNORE_DAMAGE);
        LogWalker.End end;
        try {
            // tailFrom = limit: below the cut nothing may be torn or missing, just as after reopening.
            end = walker.walk(walked, 0, limit, limit, IGNORE_RECORDS);
        } catch (CorruptLogException e) {
            throw new CommitLogException("the log is damaged before position " + cut.position() + ": " + e.reason() + " at position "
                    + e.position() + " (" + e.file().getFileName() + ", offset " + e.offset() + "); cut at " + e.position()
                    + " or before it" + interruptedCutHint(segments, headers, e.file()));
        }
        if (end.position() != cut.position()) {
            throw new CommitLogException("position " + cut.position() + " is not where a frame starts: reading from the start of the log, "
                    + "the first place at or after it where the log can be cut is position " + end.position() + " (dump shows every record's position)");
        }
        return walker.records();
    }

    /**
     * A cut in a compressed or encrypted segment rewrites the section it falls in, in place: an
     * interrupted one can leave that section torn, and the records before the cut in it are then in
     * the earlier run's backup, not lost. Said when the damage is in such a segment.
     */
    private static String interruptedCutHint(List<SegmentRef> segments, List<SegmentHeader> headers, Path damaged) {
        for (int i = 0; i < segments.size(); i++) {
            SegmentHeader header = headers.get(i);
            if (segments.get(i).path().equals(damaged) && header != null
                    && header.version() == SegmentDescriptor.FORMAT_VERSION_SECTIONS) {
                return "; if a truncate-after of this log was interrupted, copy " + damaged.getFileName()
                        + " back from its backup directory first";
            }
        }
        return "";
    }

    /** Whether the file holds any non-zero byte at or after {@code offset}. */
    private boolean holdsData(SegmentRef ref, int offset) throws IOException {
        try (SegmentFile file = storage.open(ref.path(), false)) {
            file.readableTo(file.size()); // a sectioned file's plain bytes; nothing to do for a plain one
            ByteBuffer bytes = file.buffer();
            for (int i = offset; i < file.size(); i++) {
                if (bytes.get(i) != 0) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Zeroes from {@code offset} on (unless negative) and lowers a durable mark past {@code position}, then flushes. */
    private void cutAndLowerMark(SegmentRef ref, int offset, long position) throws IOException {
        try (SegmentFile file = storage.open(ref.path(), true)) {
            SegmentHeader header = SegmentHeader.decode(file.buffer(), ref.id(), file.size());
            if (offset > 0) {
                ZeroFill.from(file, offset);
            }
            if (header.durableMark() > position) {
                SegmentHeader.writeDurableMark(file.buffer(), ref.id(), position);
            }
            if (offset > 0) {
                file.cutSections(offset); // a sectioned file: the section holding the cut is stored again, shorter
            }
            file.flush(0, file.size());
        }
    }

    /** Reads the result as recovery on open under the strict policy will: it must end exactly at the cut. */
    private void checkAfter(List<SegmentRef> kept, Cut cut, Path backup) throws IOException {
        long tailFrom = LogRecovery.highestDurableMark(kept, storage);
        LogWalker.End end;
        try {
            end = new LogWalker(storage, ReplayPolicy.STRICT, IGNORE_DAMAGE).walk(kept, 0, Long.MAX_VALUE, tailFrom, IGNORE_RECORDS);
        } catch (CorruptLogException e) {
            throw new CommitLogException("after the cut the log does not verify (" + e.getMessage() + "); every file as it was is in " + backup, e);
        }
        if (end.position() != cut.position()) {
            throw new CommitLogException("after the cut the log ends at position " + end.position() + ", not " + cut.position()
                    + "; every file as it was is in " + backup);
        }
    }
}
