package dev.commitlog.raft;

import java.util.List;

/**
 * The groups an index checkpoint file held, ready to take the records after it: the replay from
 * {@link #start} skips a record of group {@code id} below {@code after[id]}, which the group's state
 * here already holds.
 *
 * @param file    the file's name
 * @param bytes   its length
 * @param start   the log position the replay starts at
 * @param nextId  the id the next new group gets (at least)
 * @param byId    the groups by id (null where the checkpoint has none)
 * @param after   by id: the position from which the group's records are replayed (unused where {@code byId} is null)
 */
record LoadedCheckpoint(String file, int bytes, long start, int nextId, List<GroupState> byId, long[] after) {
    /** Whether the checkpoint's state of group {@code id} already holds its record at {@code position}. */
    boolean holds(int id, long position) {
        return id < byId.size() && byId.get(id) != null && position < after[id];
    }
}
