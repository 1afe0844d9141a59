package dev.commitlog.raft;

import dev.commitlog.CommitLog;
import java.io.IOException;

/**
 * The index checkpoints of one shared log: loaded once by the first {@code init}
 * ({@link IndexCheckpointLoader}), written when the log has grown enough since the last one
 * ({@link IndexCheckpointWriter}; {@link CheckpointTrigger} asks, and {@link RaftCommitLog#close()}
 * writes a last one).
 *
 * <p>When: once the durable position has moved past the last checkpoint's start by a segment, and
 * by {@value #SIZE_RATIO} times the last checkpoint's size. The first bound makes a checkpoint per
 * completed segment when checkpoints are small; the second keeps the bytes written for
 * checkpoints under 1/{@value #SIZE_RATIO} of the bytes appended when they are large (many groups
 * with many live entries each), at the price of a longer replay after the checkpoint at open.
 */
final class IndexCheckpoints {
    static final int SIZE_RATIO = 16;

    private final CommitLog log;
    private final CheckpointFiles files;
    private final IndexCheckpointWriter writer;
    /** Held while a checkpoint is written: one at a time. Taken before this (never the other way). */
    private final Object writing = new Object();
    /** Start and size of the newest checkpoint on disk (start 0, size 0 before any); guarded by this. */
    private long lastStart;
    private int lastBytes;
    private IndexCheckpointLoader.Result loadResult;
    private int written;

    IndexCheckpoints(CommitLog log, CheckpointFiles files) {
        this.log = log;
        this.files = files;
        this.writer = new IndexCheckpointWriter(log, files);
    }

    /** The newest trustworthy checkpoint (null: none), the other files deleted; see {@link IndexCheckpointLoader}. */
    LoadedCheckpoint load() {
        IndexCheckpointLoader.Result result = IndexCheckpointLoader.load(log, files);
        synchronized (this) {
            loadResult = result;
            if (result.loaded() != null) {
                lastStart = result.loaded().start();
                lastBytes = result.loaded().bytes();
            }
        }
        return result.loaded();
    }

    /** Whether the log has grown enough since the last checkpoint (see the class doc). */
    synchronized boolean due() {
        long grown = log.durablePosition() - lastStart;
        return grown >= Math.max(log.config().segmentSize(), (long) SIZE_RATIO * lastBytes);
    }

    /**
     * Writes a checkpoint of {@code registry}'s groups (which must be loaded) if anything became
     * durable since the last one; returns whether it did. See {@link IndexCheckpointWriter#write}.
     */
    boolean take(GroupRegistry registry) throws IOException {
        synchronized (writing) {
            long since;
            synchronized (this) {
                since = lastStart;
            }
            IndexCheckpointWriter.Written file = writer.write(registry, since);
            if (file == null) {
                return false;
            }
            synchronized (this) {
                lastStart = file.start();
                lastBytes = file.bytes();
                written++;
            }
            return true;
        }
    }

    /** What the load found (null before it ran): for tests and for the log line. */
    synchronized IndexCheckpointLoader.Result loadResult() {
        return loadResult;
    }

    /** Checkpoint files written by this process. */
    synchronized int written() {
        return written;
    }

    /** The start position of the newest checkpoint on disk, 0 if none. */
    synchronized long lastStart() {
        return lastStart;
    }
}
