package dev.commitlog.raft;

import java.util.ArrayList;
import java.util.List;

/**
 * What one node's Raft meta storage acknowledged to JRaft (the term and vote of the last save that
 * returned, and the save in flight), across the node's lives. After a death ({@link #lost}) the
 * next life must load the acknowledged state or the one in flight: a meta that loads an older term
 * or forgets a vote lets the node vote a second time in a term it already voted in. Every state
 * the node held durably goes to the {@link ElectionJournal}.
 */
final class AcknowledgedMeta {
    /** A term and the peer voted for in it ({@code ""}: none). */
    record Vote(long term, String votedFor) {
        static final Vote NONE = new Vote(0, "");
    }

    private final int node;
    private final ElectionJournal journal;
    private Vote acknowledged = Vote.NONE;
    private Vote inFlight;
    private Vote[] expected = {Vote.NONE};
    private boolean died;
    private int restartsChecked;
    private final List<String> failures = new ArrayList<>();

    AcknowledgedMeta(int node, ElectionJournal journal) {
        this.node = node;
        this.journal = journal;
    }

    synchronized void loaded(Vote vote) {
        if (expected != null) {
            boolean found = false;
            for (Vote candidate : expected) {
                found |= candidate.equals(vote);
            }
            if (!found) {
                failures.add("node " + node + " restarted with the Raft meta " + vote + ", but it had acknowledged " + expected[0]
                        + (expected.length > 1 ? " (and had " + expected[1] + " in flight)" : ""));
            }
            if (died) {
                restartsChecked++;
            }
        }
        expected = null;
        died = false;
        acknowledged = vote;
        inFlight = null;
        journal.held(node, vote.term(), vote.votedFor());
    }

    synchronized void beginning(Vote vote) {
        if (expected == null) {
            inFlight = vote;
        }
    }

    synchronized void done(Vote vote) {
        if (expected == null) {
            acknowledged = vote;
            inFlight = null;
            journal.held(node, vote.term(), vote.votedFor());
        }
    }

    /** The node died: its next life must load what it acknowledged (or the save in flight). */
    synchronized void lost() {
        if (expected == null) {
            expected = inFlight == null ? new Vote[] {acknowledged} : new Vote[] {acknowledged, inFlight};
            died = true;
        }
    }

    synchronized List<String> failures() {
        return new ArrayList<>(failures);
    }

    synchronized int restartsChecked() {
        return restartsChecked;
    }
}
