package dev.commitlog.replay;

import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener;
import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentHeaderException;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.util.List;

/**
 * Walks the segment files in position order, verifying every frame, and decides what each bad
 * frame means. The one rule that separates a torn tail from corruption: a crash can only damage
 * what was never flushed, and everything below {@code tailFrom} (the highest durable mark any
 * segment header carries, see {@code SegmentDescriptor}) was flushed. So an unwritten or bad frame
 * at or after {@code tailFrom} is where the log ends; one before it is damage, handled by the
 * {@link ReplayPolicy}. Each report and each refusal carries its {@link Damage} kind, decided here,
 * where the walk knows it; callers act on the kind, never on the reason's text.
 */
public final class LogWalker {
    private static final String ADVICE = "To open the log anyway, set commitlog_replay_policy: skip_corrupt (skips and reports "
            + "each damaged record) or cut the log at this position with java -jar commitlog-tools.jar truncate-after DIR POSITION "
            + "(keeps a backup of what it cuts)";
    /** Starts the reason of a {@link Damage#TORN_TAIL}: text for people, who read it in reports and logs. */
    private static final String TORN_TAIL = "torn tail: ";
    /** Starts the reason of a {@link Damage#DAMAGED_HEADER}; text only: code decides by the kind. */
    public static final String DAMAGED_HEADER = "damaged segment header: ";

    /** Where and why a walk ended. */
    public record End(long position, int segmentIndex, int offset, boolean insideSegment) {
    }

    private final StorageLayer storage;
    private final ReplayPolicy policy;
    private final CorruptionListener listener;
    private final FrameScanner scanner = new FrameScanner();
    private ReplayProgress progress;
    /** Whether {@code from} must be a frame boundary (a caller's replay position) or may lie anywhere (a tool's scan). */
    private boolean fromIsFrameStart;
    private long records;
    private long damaged;

    public LogWalker(StorageLayer storage, ReplayPolicy policy, CorruptionListener listener) {
        this.storage = storage;
        this.policy = policy;
        this.listener = listener;
    }

    /** Reports this walk's progress (percent, records/s) as it goes; the caller logs the summary. */
    LogWalker reportingProgress(ReplayProgress progress) {
        this.progress = progress;
        return this;
    }

    /**
     * Refuses a walk whose {@code from} lies inside a frame, a segment header or past an end
     * marker, with {@link FrameBoundaries}' refusals, before any record is visited: a replay that
     * started mid-record would silently leave out the record that holds the position.
     */
    LogWalker requiringFrameStartAtFrom() {
        this.fromIsFrameStart = true;
        return this;
    }

    /**
     * Visits every verified record with {@code from <= position < limit}.
     *
     * @param tailFrom positions at or after this may end the log (torn or unwritten tail);
     *                 pass {@code limit} when the whole range is known durable (replay of a live log)
     * @return where the walk stopped: inside a segment (the tail), or after the last complete one
     */
    public End walk(List<SegmentRef> segments, long from, long limit, long tailFrom, FrameVisitor visitor) throws IOException {
        long expectedBase = -1;
        for (int index = 0; index < segments.size(); index++) {
            SegmentRef ref = segments.get(index);
            try (SegmentFile file = storage.open(ref.path(), false)) {
                SegmentHeader header;
                try {
                    header = SegmentHeader.decode(file.buffer(), ref.id(), file.size());
                } catch (SegmentHeaderException e) {
                    damage(ref, 0, Math.max(expectedBase, 0), Damage.DAMAGED_HEADER, DAMAGED_HEADER + e.getMessage(),
                            "segment skipped");
                    continue;
                }
                if (expectedBase >= 0 && header.basePosition() < expectedBase) {
                    // Positions already walked (a copied or misnamed segment): replaying it would hand
                    // records out of order or twice, so it is skipped whole. Found by ReplayFuzzTest.
                    damage(ref, 0, expectedBase, Damage.OVERLAP, "segment starts at log position " + header.basePosition()
                            + ", inside positions an earlier segment already holds (up to " + expectedBase + ")", "segment skipped");
                    continue;
                }
                if (expectedBase >= 0 && header.basePosition() != expectedBase) {
                    damage(ref, 0, expectedBase, Damage.GAP, "log positions " + expectedBase + " to " + header.basePosition()
                            + " are missing (a segment file is gone or was renamed)", "gap skipped");
                }
                if (progress != null && !progress.started()) {
                    progress.start(Math.max(from, header.basePosition()), Math.min(limit, header.basePosition() + bytesFrom(segments, index)));
                }
                expectedBase = header.endPosition();
                if (header.endPosition() <= from) {
                    continue;
                }
                file.readableTo(file.size()); // a sectioned file decodes its sections (a missing key refuses here)
                End end = walkSegment(ref, index, file, header, from, limit, tailFrom, visitor);
                if (end != null) {
                    return end;
                }
            }
        }
        return new End(Math.max(expectedBase, 0), segments.size(), 0, false);
    }

    /** The bytes of the segment files from {@code index} on: the span a walk from there covers. */
    private long bytesFrom(List<SegmentRef> segments, int index) throws IOException {
        long bytes = 0;
        for (SegmentRef ref : segments.subList(index, segments.size())) {
            bytes += storage.size(ref.path());
        }
        return bytes;
    }

    /** Returns null when the segment ended with its end marker (or was abandoned after damage). */
    private End walkSegment(SegmentRef ref, int index, SegmentFile file, SegmentHeader header, long from, long limit,
                            long tailFrom, FrameVisitor visitor) {
        long base = header.basePosition();
        scanner.reset(file.buffer(), base);
        visitor.onSegment(ref, header, file.buffer());
        int offset = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        if (fromIsFrameStart && from > base && from < base + offset) {
            throw FrameBoundaries.insideHeader(from, ref.path(), base);
        }
        for (;;) {
            long position = base + offset;
            if (position >= limit) {
                return new End(position, index, offset, true);
            }
            FrameScanner.Kind kind = scanner.scan(offset);
            switch (kind) {
                case RECORD -> {
                    requireNotInside(position, scanner.alignedLength(), from, kind);
                    records++;
                    if (progress != null) {
                        progress.onRecord(position);
                    }
                    if (position >= from) {
                        visitor.onRecord(position, file.buffer(), scanner.payloadOffset(), scanner.payloadLength());
                    }
                    offset += scanner.alignedLength();
                }
                case ABORTED -> {
                    requireNotInside(position, scanner.alignedLength(), from, kind);
                    offset += scanner.alignedLength();
                }
                case END -> {
                    if (fromIsFrameStart && from > position && from < header.endPosition()) {
                        throw FrameBoundaries.pastEndMarker(from, position, header.endPosition());
                    }
                    return null;
                }
                case UNWRITTEN, BAD -> {
                    // A sectioned file's plain bytes end where a section did not verify: that section is the bad frame.
                    String sectionDamage = kind == FrameScanner.Kind.UNWRITTEN ? file.sectionDamageAt(offset) : null;
                    boolean bad = kind == FrameScanner.Kind.BAD || sectionDamage != null;
                    String reason = sectionDamage != null ? sectionDamage
                            : kind == FrameScanner.Kind.UNWRITTEN ? "no frame was ever written here" : scanner.reason();
                    if (position >= tailFrom) {
                        // Never flushed, so a crash may have torn or lost it: this is where the log ends.
                        if (bad) {
                            if (policy == ReplayPolicy.STRICT) {
                                throw new CorruptLogException(ref.path(), offset, position, Damage.TORN_TAIL, TORN_TAIL + reason,
                                        ADVICE);
                            }
                            damaged++;
                            listener.onCorruption(ref.path(), offset, position, Damage.TORN_TAIL, TORN_TAIL + reason,
                                    "log ends here; the unflushed tail after it is discarded");
                        }
                        return new End(position, index, offset, true);
                    }
                    // Below the durable mark this data was flushed once: a crash cannot explain it.
                    damage(ref, offset, position, Damage.BAD_FRAME, reason, "record skipped");
                    int next = scanner.resync(offset);
                    if (next < 0) {
                        // The same damage, reported once more: what follows it in this segment is lost too.
                        listener.onCorruption(ref.path(), offset, position, Damage.BAD_FRAME,
                                "no valid frame after the damage in this segment", "rest of segment skipped");
                        return null;
                    }
                    offset = next;
                }
                default -> throw new IllegalStateException(kind.toString());
            }
        }
    }

    /** With {@link #requiringFrameStartAtFrom()}: refuses a {@code from} inside the frame at {@code position}. */
    private void requireNotInside(long position, int alignedLength, long from, FrameScanner.Kind kind) {
        if (fromIsFrameStart && position < from && from < position + alignedLength) {
            throw FrameBoundaries.insideFrame(from, position, position + alignedLength, kind);
        }
    }

    /** Damage where a crash cannot explain it: the policy decides. */
    private void damage(SegmentRef ref, long offset, long position, Damage kind, String reason, String action) {
        damaged++;
        if (policy != ReplayPolicy.SKIP_CORRUPT) {
            throw new CorruptLogException(ref.path(), offset, position, kind, reason, ADVICE);
        }
        listener.onCorruption(ref.path(), offset, position, kind, reason, action);
    }

    public long records() {
        return records;
    }

    public long damaged() {
        return damaged;
    }
}
