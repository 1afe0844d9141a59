package dev.commitlog.raft;

import dev.commitlog.Ack;
import dev.commitlog.CommitLog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every group of the shared log, by key and by id, built by one replay of the whole log the first
 * time a storage needs its group, then kept live: storages change their group's state as they
 * write, so a storage inited later (a new group, or one inited again after a shutdown) takes its
 * state from here and replays nothing.
 *
 * <p>Ids are small ints handed out in order (the next is one past the highest the log holds), so a
 * list indexed by id finds a record's group without boxing. A key's GROUP record is appended
 * without waiting: every later record of the group lies after it, so whatever of the group is
 * durable, its binding is too. All methods are synchronized: registration and the compaction's
 * view of the groups never interleave.
 */
final class GroupRegistry {
    private final CommitLog log;
    private final List<GroupState> byId = new ArrayList<>();
    private final Map<String, GroupState> byKey = new HashMap<>();
    private boolean loaded;
    private int replays;

    GroupRegistry(CommitLog log) {
        this.log = log;
    }

    /** The state of the group {@code key} names, replaying the log first if no group was asked for yet. */
    synchronized GroupState group(String key) {
        loadOnce();
        GroupState state = byKey.get(key);
        if (state == null || state.dropped()) {
            state = new GroupState(Math.max(1, byId.size()));
            byte[] binding = RaftRecord.group(state.id, RaftRecord.keyBytes(key));
            long position = log.append(binding, 0, binding.length, Ack.WRITTEN);
            state.bind(key, position);
            register(state);
        }
        return state;
    }

    /** The group {@code key} names, or null if none is bound to it; creates nothing. */
    synchronized GroupState find(String key) {
        loadOnce();
        GroupState state = byKey.get(key);
        return state == null || state.dropped() ? null : state;
    }

    /** Ends {@code state}'s key binding after its DROP record: the key's next storage gets a new group (and id). */
    synchronized void forget(GroupState state) {
        byKey.remove(state.key(), state);
    }

    /** The groups known now. */
    synchronized List<GroupState> groups() {
        loadOnce();
        return List.copyOf(byKey.values());
    }

    /** How many times the whole log was replayed: once per registry. */
    synchronized int replays() {
        return replays;
    }

    private void loadOnce() {
        if (loaded) {
            return;
        }
        replays++;
        log.replay(0, (position, record) -> stateOf(position, RaftRecord.groupId(record)).replay(position, record));
        for (GroupState state : byId) {
            if (state == null || state.dropped()) {
                continue;
            }
            if (state.key() == null) {
                throw new IllegalStateException("commit log " + log.config().directory() + " holds records of Raft group id "
                        + state.id + " but no GROUP or CHECKPOINT record binding it to a key");
            }
            GroupState other = byKey.put(state.key(), state);
            if (other != null) {
                throw new IllegalStateException("commit log " + log.config().directory() + " binds Raft group key " + state.key()
                        + " to two ids, " + other.id + " and " + state.id);
            }
        }
        loaded = true;
    }

    /**
     * Replay: the state of group {@code id}, created on its first record (its binding may come
     * later, in a checkpoint). Id 0 is never handed out: it is what a record of the earlier layout
     * (a 2-byte key length after the kind) reads as, so such a log is refused by name.
     */
    private GroupState stateOf(long position, int id) {
        if (id == 0) {
            throw new IllegalStateException("commit log " + log.config().directory() + ": the record at log position " + position
                    + " names Raft group id 0, which no record of this layout uses; a log written by an earlier snapshot of"
                    + " commitlog-raft (group key in every record) cannot be read, and the log must hold Raft records only");
        }
        while (byId.size() <= id) {
            byId.add(null);
        }
        GroupState state = byId.get(id);
        if (state == null) {
            state = new GroupState(id);
            byId.set(id, state);
        }
        return state;
    }

    private void register(GroupState state) {
        while (byId.size() <= state.id) {
            byId.add(null);
        }
        byId.set(state.id, state);
        byKey.put(state.key(), state);
    }
}
