package dev.commitlog.read;

import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.PositionDiscardedException;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.replay.LogWalker;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentHeaderException;
import dev.commitlog.segment.SegmentReaders;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The log's one table of read-only segment mappings, shared by random reads ({@link RecordReader})
 * and tailers ({@link SegmentTailer}): a segment either of them maps is mapped once, and the other
 * finds it mapped.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>A segment is mapped on first use and kept in the table; the table is a copy-on-write array
 *       sorted by base position, replaced whole under {@code this}, so a lookup that finds its
 *       segment takes no lock and allocates nothing.</li>
 *   <li>Each {@link SegmentMapping} is reference counted (the table's reference plus one per user),
 *       so a mapping the table drops (its segment discarded, or the table closed) is unmapped only
 *       once its last user releases it: a tailer reads on through a segment whose file
 *       {@code discardUpTo} deleted.</li>
 *   <li>Positions below {@code discardedBelow} are refused with {@link PositionDiscardedException},
 *       and the mappings wholly below it are dropped, when anyone next looks a segment up.</li>
 *   <li>Only mappings of durable data are asked for: every caller checked the position against
 *       the durable position first. The table does not know that position.</li>
 *   <li>After {@link #close()} the table keeps nothing: {@link #holding} refuses, and
 *       {@link #segment} (a tailer draining a closed log) maps for its caller alone, unmapped when
 *       the caller releases it.</li>
 * </ul>
 */
public final class SegmentMappings implements SegmentReaders {
    private static final SegmentMapping[] NONE = new SegmentMapping[0];

    private final StorageLayer storage;
    private final Path directory;
    private final LongSupplier discardedBelow;
    /** Mapped segments by ascending base position; replaced whole (under {@code this}), never changed in place. */
    private volatile SegmentMapping[] mappings = NONE;
    /** Every mapping not unmapped yet, in the table or not (dropped, or a caller's alone): what {@link #runIfUnmapped} checks. */
    private final Set<SegmentMapping> mapped = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** @param discardedBelow every position below this lies in a deleted segment file */
    SegmentMappings(StorageLayer storage, Path directory, LongSupplier discardedBelow) {
        this.storage = storage;
        this.directory = directory;
        this.discardedBelow = discardedBelow;
    }

    /**
     * The mapping of the segment that holds {@code position}, with a reference the caller
     * releases: a random read's lookup.
     *
     * @throws PositionDiscardedException if {@code position} lies below the oldest segment left
     * @throws IllegalStateException      if the table is closed
     */
    SegmentMapping holding(long position) throws IOException {
        long discarded = refuseDiscarded(position);
        while (true) {
            if (closed) {
                throw new IllegalStateException("the commit log is closed");
            }
            SegmentMapping found = find(liveTable(discarded), position);
            if (found == null) {
                return mapHolding(position);
            }
            if (found.acquire()) {
                return found;
            }
            // Dropped and unmapped between the lookup and the acquire: look again.
        }
    }

    /**
     * The mapping of segment {@code segmentId}, which must start at log position {@code base}, with
     * a reference the caller releases: a tailer's step to the next segment.
     *
     * @throws PositionDiscardedException if {@code base} was discarded, or the file is gone
     * @throws CorruptLogException        if the file's header does not verify or names another base
     */
    SegmentMapping segment(long segmentId, long base) throws IOException {
        long discarded = refuseDiscarded(base);
        while (true) {
            SegmentMapping found = find(liveTable(discarded), base);
            if (found == null || found.segmentId != segmentId || found.base != base) {
                return mapSegment(segmentId, base);
            }
            if (found.acquire()) {
                return found;
            }
        }
    }

    /**
     * Runs {@code action} (retention making a discarded file a spare) if no mapping of the segment
     * exists once the discarded ones nobody holds are unmapped. Mappings are made only under this
     * object's lock, so none can be made while {@code action} runs: a reader then finds the file
     * gone, and the position discarded.
     */
    @Override
    public synchronized boolean runIfUnmapped(long segmentId, FileAction action) throws IOException {
        dropBelow(discardedBelow.getAsLong());
        for (SegmentMapping mapping : mapped) {
            if (mapping.segmentId == segmentId) {
                return false;
            }
        }
        action.run();
        return true;
    }

    /** Made under this object's lock (see {@link #runIfUnmapped}). */
    private SegmentMapping track(SegmentMapping mapping) {
        mapped.add(mapping);
        return mapping;
    }

    /** Drops the mappings wholly below the discarded position (each unmapped once no user holds it). */
    void dropDiscarded() {
        liveTable(discardedBelow.getAsLong());
    }

    /** The table, once the mappings wholly below {@code discarded} are dropped from it (a read of a volatile when none is). */
    private SegmentMapping[] liveTable(long discarded) {
        SegmentMapping[] table = mappings;
        if (table.length > 0 && table[0].end <= discarded) {
            dropBelow(discarded);
            table = mappings;
        }
        return table;
    }

    /** Refuses a discarded {@code position} (dropping what lies below the discard); returns the discarded position. */
    private long refuseDiscarded(long position) {
        long discarded = discardedBelow.getAsLong();
        if (position < discarded) {
            dropBelow(discarded);
            throw new PositionDiscardedException(position, discarded);
        }
        return discarded;
    }

    private static SegmentMapping find(SegmentMapping[] table, long position) {
        int low = 0;
        int high = table.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            SegmentMapping m = table[mid];
            if (position < m.base) {
                high = mid - 1;
            } else if (position >= m.end) {
                low = mid + 1;
            } else {
                return m;
            }
        }
        return null;
    }

    /** Finds the segment file that holds {@code position} in a listing of the directory, and maps it. */
    private synchronized SegmentMapping mapHolding(long position) throws IOException {
        SegmentMapping existing = find(mappings, position);
        if (existing != null && existing.acquire()) {
            return existing;
        }
        long oldest = -1;
        for (SegmentRef ref : listSegments()) {
            SegmentHeader header = ref.readHeader(storage);
            if (header == null) {
                continue; // damaged (left for an operator) or deleted since the listing
            }
            if (oldest < 0) {
                oldest = header.basePosition();
            }
            if (position < header.basePosition()) {
                break;
            }
            if (position < header.endPosition()) {
                SegmentFile file;
                try {
                    file = storage.open(ref.path(), false);
                } catch (NoSuchFileException e) {
                    break; // deleted since its header was read: a discard, checked below
                }
                SegmentMapping mapping = track(new SegmentMapping(file, ref.id(), header.basePosition(), mapped::remove));
                if (mapping.end != header.endPosition()) {
                    mapping.release();
                    throw new CorruptLogException(ref.path(), 0, header.basePosition(), Damage.DAMAGED_HEADER, "the file is " + file.size()
                            + " bytes, its header says " + (header.endPosition() - header.basePosition()), "");
                }
                return keep(mapping);
            }
        }
        // A discard may delete files while they are listed; it raises discardedBelow first.
        long discarded = discardedBelow.getAsLong();
        if (position < discarded) {
            throw new PositionDiscardedException(position, Math.max(oldest, discarded));
        }
        if (oldest < 0 || position < oldest) {
            throw new PositionDiscardedException(position, Math.max(oldest, 0));
        }
        throw new IllegalStateException("no segment file in " + directory + " holds log position " + position
                + ", below the durable position");
    }

    /** Maps segment {@code segmentId} by its file name, checking that it starts at {@code base}. */
    private synchronized SegmentMapping mapSegment(long segmentId, long base) throws IOException {
        SegmentMapping existing = find(mappings, base);
        if (existing != null && existing.segmentId == segmentId && existing.base == base && existing.acquire()) {
            return existing;
        }
        Path path = directory.resolve(SegmentDescriptor.fileName(segmentId));
        SegmentFile file;
        try {
            file = storage.open(path, false);
        } catch (NoSuchFileException e) {
            throw new PositionDiscardedException(base, oldestPosition(base));
        }
        SegmentHeader header;
        try {
            header = SegmentHeader.decode(file.buffer(), segmentId, file.size());
        } catch (SegmentHeaderException e) {
            file.close();
            throw new CorruptLogException(path, 0, base, Damage.DAMAGED_HEADER, LogWalker.DAMAGED_HEADER + e.getMessage(),
                    "the tailer cannot go past it");
        }
        if (header.basePosition() != base) {
            file.close();
            throw new CorruptLogException(path, 0, base, header.basePosition() < base ? Damage.OVERLAP : Damage.GAP,
                    "segment starts at log position " + header.basePosition() + ", expected " + base, "the tailer cannot go past it");
        }
        return keep(track(new SegmentMapping(file, segmentId, base, mapped::remove)));
    }

    /**
     * Adds {@code mapping} (holding its caller's reference) to the table, which takes a reference
     * of its own; once closed, the table keeps nothing and the caller's reference is the only one.
     * A mapping whose positions overlap one already kept (two files claiming the same positions:
     * damage a walk reports) stays its caller's alone too, so a lookup by position never has two
     * answers.
     */
    private SegmentMapping keep(SegmentMapping mapping) {
        SegmentMapping[] table = mappings;
        if (closed || overlapsAny(table, mapping)) {
            return mapping;
        }
        mapping.acquire();
        int at = 0;
        while (at < table.length && table[at].base < mapping.base) {
            at++;
        }
        SegmentMapping[] grown = new SegmentMapping[table.length + 1];
        System.arraycopy(table, 0, grown, 0, at);
        grown[at] = mapping;
        System.arraycopy(table, at, grown, at + 1, table.length - at);
        mappings = grown;
        return mapping;
    }

    private static boolean overlapsAny(SegmentMapping[] table, SegmentMapping mapping) {
        for (SegmentMapping kept : table) {
            if (kept.base < mapping.end && mapping.base < kept.end) {
                return true;
            }
        }
        return false;
    }

    /**
     * The segment files, oldest first. A discard running alongside can delete a file between the
     * directory listing and the check that each entry is a regular file, which then reports it as
     * "not a regular file"; a listing taken again no longer holds it, while an entry that really is
     * a directory is reported every time.
     */
    private List<SegmentRef> listSegments() throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return SegmentRef.list(storage, directory);
            } catch (FileSystemException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    /** Where the log now starts: the base of the oldest segment file whose header verifies, or {@code otherwise}. */
    private long oldestPosition(long otherwise) throws IOException {
        for (SegmentRef ref : SegmentRef.list(storage, directory)) {
            SegmentHeader header = ref.readHeader(storage);
            if (header != null) {
                return header.basePosition();
            }
        }
        return otherwise;
    }

    /** Drops (and unmaps once no user holds them) the mappings that end at or below {@code position}. */
    private synchronized void dropBelow(long position) {
        SegmentMapping[] table = mappings;
        int keep = 0;
        while (keep < table.length && table[keep].end <= position) {
            keep++;
        }
        if (keep == 0) {
            return;
        }
        mappings = keep == table.length ? NONE : Arrays.copyOfRange(table, keep, table.length);
        for (int i = 0; i < keep; i++) {
            table[i].release();
        }
    }

    /** Drops every mapping (each unmapped once no user holds it); the table keeps nothing from now on. Idempotent. */
    void close() {
        closed = true;
        dropBelow(Long.MAX_VALUE);
    }
}
