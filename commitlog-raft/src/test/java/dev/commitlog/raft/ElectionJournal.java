package dev.commitlog.raft;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every vote a node held durably (saved by its Raft meta storage, or loaded by it at start) and
 * every term a node started leading in, over all lives of a group's nodes. Election safety as
 * the tests see it: no node ever holds two different votes in one term, and no term has two
 * leaders. Failures are collected (the calls come from JRaft's threads).
 */
final class ElectionJournal {
    private final Map<String, String> votes = new HashMap<>();
    private final Map<Long, Integer> leaders = new HashMap<>();
    private final List<String> failures = new ArrayList<>();

    /** Node {@code node} holds {@code votedFor} (empty: none) in {@code term}, durably. */
    synchronized void held(int node, long term, String votedFor) {
        if (votedFor.isEmpty()) {
            return;
        }
        String earlier = votes.putIfAbsent(node + "@" + term, votedFor);
        if (earlier != null && !earlier.equals(votedFor)) {
            failures.add("node " + node + " voted twice in term " + term + ": for " + earlier + " and for " + votedFor);
        }
    }

    synchronized void leader(int node, long term) {
        Integer earlier = leaders.putIfAbsent(term, node);
        if (earlier != null && earlier != node) {
            failures.add("two leaders in term " + term + ": nodes " + earlier + " and " + node);
        }
    }

    synchronized List<String> failures() {
        return new ArrayList<>(failures);
    }

    /** Distinct (node, term) votes recorded. */
    synchronized int votes() {
        return votes.size();
    }

    /** Terms with a leader. */
    synchronized int leaderTerms() {
        return leaders.size();
    }
}
