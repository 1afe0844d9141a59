package dev.commitlog.raft;

import dev.commitlog.Ack;
import dev.commitlog.CommitLog;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one index checkpoint of every group, then deletes the older ones.
 *
 * <p>Each group is taken under its mutex, with {@code after} = the log's durable position read
 * there. Every record a storage applies to its group is durable first (entries and markers wait
 * for their flush; GROUP and CHECKPOINT records, appended without waiting, are the group's
 * {@linkplain GroupState#basePosition base}, checked here to lie below {@code after}), so the
 * state holds every record of the group below {@code after}; and a record appended once the mutex
 * is released lies at or above the position claimed then, which is at or above {@code after}. So
 * the state is exactly what a replay of the group's records below {@code after} builds, and a
 * replay from {@code start} (the durable position before the first group was taken) that skips
 * the group's records below {@code after} finishes it.
 *
 * <p>Order of the steps, each durable before the next: every record appended before the
 * checkpoint (one sync); the groups' states; the INDEX_CHECKPOINT record (one sync: this also
 * fails if the log failed, so no checkpoint is written of a log whose state a failed append may
 * have left short of its records); the file (temporary name, synced, renamed, directory synced);
 * the older files' deletion. A crash anywhere leaves the previous checkpoint, this one, or both.
 */
final class IndexCheckpointWriter {
    /** A checkpoint file written. */
    record Written(String name, long start, int bytes) {
    }

    private final CommitLog log;
    private final CheckpointFiles files;
    private final SecureRandom nonces = new SecureRandom();

    IndexCheckpointWriter(CommitLog log, CheckpointFiles files) {
        this.log = log;
        this.files = files;
    }

    /**
     * Writes a checkpoint of the groups {@code registry} holds (loaded), unless nothing became
     * durable since the one starting at {@code since}; returns it, or null.
     *
     * @throws IllegalStateException if the log is closed
     * @throws dev.commitlog.CommitLogException if the log failed
     * @throws IOException if the file could not be written (the previous checkpoint stays)
     */
    Written write(GroupRegistry registry, long since) throws IOException {
        log.sync(); // GROUP and CHECKPOINT records are appended without waiting
        long start = log.durablePosition();
        if (start <= since) {
            return null;
        }
        List<GroupState> groups = registry.groups(); // a group registered from now on has its GROUP record at or above start
        return write(start, groups, registry.nextId());
    }

    /**
     * The checkpoint of {@code groups}, listed once {@code start} was durable, with next id
     * {@code nextId}: {@link #write(GroupRegistry, long)} after its first steps. Tests call it to
     * drop a group between the listing and the take.
     */
    Written write(long start, List<GroupState> groups, int nextId) throws IOException {
        IndexCheckpointEncoder encoder = new IndexCheckpointEncoder(start, nextId);
        for (GroupState group : groups) {
            take(group, encoder);
        }
        long nonce = nonces.nextLong();
        byte[] mark = RaftRecord.indexCheckpoint(nonce, start);
        long markPosition = log.append(mark, 0, mark.length, Ack.WRITTEN);
        log.sync();
        byte[] file = encoder.finish(markPosition, nonce);
        String name = IndexCheckpointDescriptor.fileName(start);
        files.write(name, file);
        List<String> older = new ArrayList<>();
        for (String other : files.list()) {
            long otherStart = IndexCheckpointDescriptor.startOf(other);
            if ((otherStart >= 0 && otherStart < start) || IndexCheckpointDescriptor.isTemporary(other)) {
                older.add(other);
            }
        }
        files.delete(older);
        return new Written(name, start, file.length);
    }

    /**
     * One group into the checkpoint, under its mutex, once its base record is durable. A group
     * dropped since the list was read is left out: its DROP record is durable by now, and a
     * checkpoint holding it would bring the group back (a replay skips its records below
     * {@code after}, the DROP among them).
     */
    private void take(GroupState group, IndexCheckpointEncoder encoder) {
        while (true) {
            synchronized (group.mutex) {
                if (group.dropped()) {
                    return;
                }
                long after = log.durablePosition();
                if (group.basePosition() < after) {
                    encoder.group(group, after);
                    return;
                }
            }
            log.sync(); // a CHECKPOINT record appended since the first sync: wait for it outside the mutex
        }
    }
}
