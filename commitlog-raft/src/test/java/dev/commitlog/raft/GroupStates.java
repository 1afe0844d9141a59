package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every group's whole in-memory state as a shared log holds it, field by field: id, key, base
 * position, bounds and first-fixed flag, the position of every index, the configurations, and the
 * next id. Two loads of one log are the same load exactly when these are equal.
 */
record GroupStates(int nextId, Map<String, String> byKey) {
    static GroupStates of(RaftCommitLog shared) {
        GroupRegistry registry = shared.groups();
        Map<String, String> byKey = new TreeMap<>();
        for (GroupState group : registry.groups()) {
            synchronized (group.mutex) {
                byKey.put(group.key(), describe(group));
            }
        }
        return new GroupStates(registry.nextId(), byKey);
    }

    private static String describe(GroupState group) {
        PositionIndex index = group.index();
        List<Long> positions = new ArrayList<>();
        for (long i = index.first(); i <= index.last(); i++) {
            positions.add(index.get(i));
        }
        return "id " + group.id + ", base " + group.basePosition() + ", first " + index.first() + ", last " + index.last()
                + ", first fixed " + index.firstFixed() + ", configurations " + group.configurations() + ", positions " + positions;
    }

    /** Fails naming the first group whose state differs. */
    void assertSameAs(GroupStates actual, String what) {
        assertEquals(byKey.keySet(), actual.byKey.keySet(), what + ": group keys");
        for (Map.Entry<String, String> group : byKey.entrySet()) {
            assertEquals(group.getValue(), actual.byKey.get(group.getKey()), what + ": group " + group.getKey());
        }
        assertEquals(nextId, actual.nextId, what + ": next id");
    }
}
