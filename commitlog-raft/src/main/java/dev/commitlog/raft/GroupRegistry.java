package dev.commitlog.raft;

import dev.commitlog.Ack;
import dev.commitlog.CommitLog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every group of the shared log, by key and by id, loaded the first time a storage needs its
 * group, then kept live: storages change their group's state as they write, so a storage inited
 * later (a new group, or one inited again after a shutdown) takes its state from here and replays
 * nothing. The load starts from the newest index checkpoint the log vouches for (which the
 * registry is given as a supplier: {@link IndexCheckpoints#load}, which also writes checkpoints of
 * this registry's groups) and replays the records after it; with none, it replays the whole log.
 *
 * <p>Ids are small ints handed out in order (the next is one past the highest the log holds), so a
 * list indexed by id finds a record's group without boxing. A key's GROUP record is appended
 * without waiting: every later record of the group lies after it, so whatever of the group is
 * durable, its binding is too. All methods are synchronized: registration and the compaction's
 * view of the groups never interleave.
 */
final class GroupRegistry {
    private final CommitLog log;
    /** The newest trusted checkpoint, or null; asked once, by the load. */
    private final Supplier<LoadedCheckpoint> newestCheckpoint;
    private final List<GroupState> byId = new ArrayList<>();
    private final Map<String, GroupState> byKey = new HashMap<>();
    private boolean loaded;
    private int loads;
    private int replays;

    GroupRegistry(CommitLog log, Supplier<LoadedCheckpoint> newestCheckpoint) {
        this.log = log;
        this.newestCheckpoint = newestCheckpoint;
    }

    /** The state of the group {@code key} names, loading the groups first if no group was asked for yet. */
    synchronized GroupState group(String key) {
        loadOnce();
        GroupState state = byKey.get(key);
        if (state == null || state.dropped()) {
            state = new GroupState(nextId());
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

    /** How many times the groups were loaded: once per registry. */
    synchronized int loads() {
        return loads;
    }

    /** How many of the loads replayed the whole log (no checkpoint was trusted). */
    synchronized int replays() {
        return replays;
    }

    /** Whether the groups were loaded (a checkpoint is only ever taken of loaded groups). */
    synchronized boolean loaded() {
        return loaded;
    }

    /** The id the next new group gets: one past the highest the log or a checkpoint holds. */
    synchronized int nextId() {
        return Math.max(1, byId.size());
    }

    /**
     * Builds every group's state from the newest trusted checkpoint and the records after it, or
     * from the whole log, into fresh lists that become the registry's only once the whole load
     * succeeded (a load that throws leaves nothing half-built for the next attempt).
     */
    private void loadOnce() {
        if (loaded) {
            return;
        }
        loads++;
        LoadedCheckpoint checkpoint = newestCheckpoint.get();
        List<GroupState> states = new ArrayList<>();
        if (checkpoint == null) {
            replays++;
        } else {
            states.addAll(checkpoint.byId()); // as many as its next id: ids it handed out stay taken
        }
        log.replay(checkpoint == null ? 0 : checkpoint.start(), (position, record) -> {
            if (RaftRecord.kind(record) == RaftRecord.INDEX_CHECKPOINT) {
                return; // no group's record: it vouches for a checkpoint file (IndexCheckpointLoader)
            }
            int id = RaftRecord.groupId(record);
            if (checkpoint != null && checkpoint.holds(id, position)) {
                return; // the checkpoint's state of the group holds it already
            }
            stateOf(states, position, id).replay(position, record);
        });
        Map<String, GroupState> keys = new HashMap<>();
        for (GroupState state : states) {
            // A dropped group keeps its id (ids stay taken) but no key; after a checkpoint its
            // binding may lie before the replay's start, so it is passed over before the key check.
            if (state == null || state.dropped()) {
                continue;
            }
            if (state.key() == null) {
                throw new IllegalStateException("commit log " + log.config().directory() + " holds records of Raft group id "
                        + state.id + " but no GROUP or CHECKPOINT record binding it to a key");
            }
            GroupState other = keys.put(state.key(), state);
            if (other != null) {
                throw new IllegalStateException("commit log " + log.config().directory() + " binds Raft group key " + state.key()
                        + " to two ids, " + other.id + " and " + state.id);
            }
        }
        byId.addAll(states);
        byKey.putAll(keys);
        loaded = true;
    }

    /**
     * Replay: the state of group {@code id}, created on its first record (its binding may come
     * later, in a checkpoint). Id 0 is never handed out: it is what a record of the earlier layout
     * (a 2-byte key length after the kind) reads as, so such a log is refused by name.
     */
    private GroupState stateOf(List<GroupState> states, long position, int id) {
        if (id == 0) {
            throw new IllegalStateException("commit log " + log.config().directory() + ": the record at log position " + position
                    + " names Raft group id 0, which no record of this layout uses; a log written by an earlier snapshot of"
                    + " commitlog-raft (group key in every record) cannot be read, and the log must hold Raft records only");
        }
        while (states.size() <= id) {
            states.add(null);
        }
        GroupState state = states.get(id);
        if (state == null) {
            state = new GroupState(id);
            states.set(id, state);
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

    @Override
    public String toString() {
        return "the Raft groups of " + log.config().directory();
    }
}
