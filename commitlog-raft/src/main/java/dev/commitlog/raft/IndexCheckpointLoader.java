package dev.commitlog.raft;

import dev.commitlog.CommitLog;
import dev.commitlog.CommitLogException;
import dev.commitlog.PositionDiscardedException;
import dev.commitlog.raft.RefusedCheckpoint.Reason;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Picks the index checkpoint the first {@code init} starts from: the newest file that passes every
 * check, or none (then the whole log is replayed). Every other checkpoint file is deleted before
 * the log takes an append, so a file refused now is never met again by a later open, when the log
 * may have grown past its position.
 *
 * <p>A file is trusted only if (each refusal is a {@link Reason}):
 * <ul>
 *   <li>its CRC, length, magic and version hold, and its name gives its start (DAMAGED);</li>
 *   <li>its start and its INDEX_CHECKPOINT record lie below the log's durable end (PAST_DURABLE_END):
 *       a checkpoint is written after everything it covers is durable, so the log lost that since
 *       (a device that did not keep a flush, a log cut by hand);</li>
 *   <li>the log holds, at the file's mark, the INDEX_CHECKPOINT record with the file's nonce and
 *       start (NOT_VOUCHED_FOR): that record was appended by the process that wrote the file, after
 *       everything the file covers, so a log holding it has the history the file describes, and a
 *       log cut below it and grown again, or another log in the directory, does not hold it;</li>
 *   <li>its start is a record boundary at or above the oldest segment left (DISCARDED): the
 *       records between the start and the mark must all be there to be replayed;</li>
 *   <li>its contents keep the layout's rules (INCONSISTENT).</li>
 * </ul>
 */
final class IndexCheckpointLoader {
    private static final Logger LOG = LoggerFactory.getLogger(IndexCheckpointLoader.class);

    /**
     * What one load found: the checkpoint used (null: none, the whole log is replayed) and the
     * files refused, newest first.
     */
    record Result(LoadedCheckpoint loaded, List<RefusedCheckpoint> refused) {
    }

    private IndexCheckpointLoader() {
    }

    /**
     * The newest checkpoint {@code log} can start from, every other checkpoint file deleted.
     *
     * @throws UncheckedIOException if the files cannot be listed or the others deleted: a refused
     *                              file left in place could be trusted by a later open
     */
    static Result load(CommitLog log, CheckpointFiles files) {
        List<String> names;
        try {
            names = files.list();
        } catch (IOException e) {
            throw new UncheckedIOException("listing the index checkpoints of " + files + " failed: " + e.getMessage(), e);
        }
        List<String> checkpoints = new ArrayList<>();
        List<String> others = new ArrayList<>();
        for (String name : names) {
            if (IndexCheckpointDescriptor.startOf(name) >= 0) {
                checkpoints.add(name);
            } else if (IndexCheckpointDescriptor.isTemporary(name)) {
                others.add(name); // a write a crash interrupted
            }
        }
        checkpoints.sort(Comparator.comparingLong(IndexCheckpointDescriptor::startOf).reversed());
        List<RefusedCheckpoint> refused = new ArrayList<>();
        LoadedCheckpoint loaded = null;
        for (String name : checkpoints) {
            if (loaded != null) {
                others.add(name);
                continue;
            }
            try {
                loaded = trusted(log, files, name);
            } catch (RefusedCheckpoint refusal) {
                LOG.warn("{}; trying an older one, else replaying the whole log", refusal.getMessage());
                refused.add(refusal);
                others.add(name);
            }
        }
        try {
            files.delete(others);
        } catch (IOException e) {
            throw new UncheckedIOException("deleting the index checkpoints " + others + " of " + files + " failed: "
                    + e.getMessage(), e);
        }
        return new Result(loaded, refused);
    }

    private static LoadedCheckpoint trusted(CommitLog log, CheckpointFiles files, String name) throws RefusedCheckpoint {
        byte[] bytes;
        try {
            bytes = files.read(name);
        } catch (IOException e) {
            throw new RefusedCheckpoint(Reason.UNREADABLE, name, e.toString());
        }
        IndexCheckpointDecoder.Header header = IndexCheckpointDecoder.header(name, bytes);
        if (header.start() != IndexCheckpointDescriptor.startOf(name)) {
            throw new RefusedCheckpoint(Reason.DAMAGED, name, "its header starts at " + header.start() + ", its name at "
                    + IndexCheckpointDescriptor.startOf(name));
        }
        long durable = log.durablePosition();
        if (header.mark() >= durable || header.start() > header.mark()) {
            throw new RefusedCheckpoint(Reason.PAST_DURABLE_END, name, "start " + header.start() + ", INDEX_CHECKPOINT record at "
                    + header.mark() + ", the log is durable up to " + durable);
        }
        vouched(log, name, header);
        startRetained(log, name, header.start());
        return IndexCheckpointDecoder.groups(name, bytes, header);
    }

    /** The log's record at the file's mark is the INDEX_CHECKPOINT record of its nonce and start. */
    private static void vouched(CommitLog log, String name, IndexCheckpointDecoder.Header header) throws RefusedCheckpoint {
        long[] found = new long[3];
        try {
            log.readAt(header.mark(), (position, record) -> {
                boolean mark = record.remaining() == 18 && RaftRecord.kind(record) == RaftRecord.INDEX_CHECKPOINT
                        && record.get(record.position() + 1) == 0;
                found[0] = mark ? 1 : 0;
                found[1] = mark ? RaftRecord.indexCheckpointNonce(record) : 0;
                found[2] = mark ? RaftRecord.indexCheckpointStart(record) : 0;
            });
        } catch (PositionDiscardedException e) {
            throw new RefusedCheckpoint(Reason.DISCARDED, name, "its INDEX_CHECKPOINT record at " + header.mark() + " was discarded");
        } catch (IllegalArgumentException | CommitLogException | UncheckedIOException e) {
            throw new RefusedCheckpoint(Reason.NOT_VOUCHED_FOR, name, "no INDEX_CHECKPOINT record at " + header.mark() + ": " + e.getMessage());
        }
        if (found[0] != 1 || found[1] != header.nonce() || found[2] != header.start()) {
            throw new RefusedCheckpoint(Reason.NOT_VOUCHED_FOR, name, "the record at " + header.mark() + " is not the INDEX_CHECKPOINT"
                    + " record of nonce " + Long.toHexString(header.nonce()) + " and start " + header.start()
                    + " (the file belongs to another history of the log)");
        }
    }

    /** A tailer opens at {@code start} only if it is a record boundary of a segment still there. */
    private static void startRetained(CommitLog log, String name, long start) throws RefusedCheckpoint {
        try {
            log.tailer(start).close(); // opened: start is a frame boundary at or above the oldest segment
        } catch (PositionDiscardedException e) {
            throw new RefusedCheckpoint(Reason.DISCARDED, name, "its start " + start + " lies below the oldest segment left");
        } catch (IllegalArgumentException | CommitLogException | IOException | UncheckedIOException e) {
            throw new RefusedCheckpoint(Reason.NOT_VOUCHED_FOR, name, "its start " + start + " is no record boundary of the log: "
                    + e.getMessage());
        }
    }
}
