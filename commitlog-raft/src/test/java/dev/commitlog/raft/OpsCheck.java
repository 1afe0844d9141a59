package dev.commitlog.raft;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableSet;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Checks the operations every node's state machine holds (all the same list) against what an
 * {@link OpsClient} learnt: the list, with the operations that were not acknowledged taken out,
 * must equal the acknowledged operations in order. In full:
 * <ul>
 *   <li>strictly increasing: no operation twice, and in submission order (the client submits in
 *       increasing order, and Raft keeps a leader's order; an entry of an older term never follows
 *       one of a newer term in a log);</li>
 *   <li>nothing that was never submitted, and nothing a test marks as never committable;</li>
 *   <li>every acknowledged operation (0 lost);</li>
 *   <li>the list from the previous check is a prefix of this one (applied state never changes).</li>
 * </ul>
 * Operations present without an acknowledgement (failed or unknown outcome, committed all the
 * same) are counted.
 */
final class OpsCheck {
    private List<Long> previous = List.of();
    private int checks;
    private int committedWithoutAcknowledgement;

    /** Returns null, or what is wrong. */
    String check(List<Long> ops, NavigableSet<Long> acknowledged, long submittedBelow, LongPredicate neverCommitted) {
        for (int i = 0; i < ops.size(); i++) {
            long op = ops.get(i);
            if (i > 0 && op <= ops.get(i - 1)) {
                return "operation " + op + " applied after " + ops.get(i - 1) + " (a duplicate or a reordering)";
            }
            if (neverCommitted.test(op)) {
                return "operation " + op + " could never have been committed, yet it was applied";
            }
            if (op < 1 || op >= submittedBelow) {
                return "operation " + op + " was never submitted (submitted: 1 to " + (submittedBelow - 1) + ")";
            }
        }
        if (ops.size() < previous.size() || !ops.subList(0, previous.size()).equals(previous)) {
            return "the state machines no longer start with what the previous check saw (" + previous.size() + " operations)";
        }
        Set<Long> present = new HashSet<>(ops);
        List<Long> lost = new ArrayList<>();
        for (long op : acknowledged) {
            if (!present.contains(op)) {
                lost.add(op);
            }
        }
        if (!lost.isEmpty()) {
            return lost.size() + " acknowledged operations lost, first " + lost.subList(0, Math.min(10, lost.size()));
        }
        committedWithoutAcknowledgement = ops.size() - acknowledged.size();
        previous = List.copyOf(ops);
        checks++;
        return null;
    }

    int checks() {
        return checks;
    }

    /** At the last check: operations applied whose closure failed or never ran. */
    int committedWithoutAcknowledgement() {
        return committedWithoutAcknowledgement;
    }
}
