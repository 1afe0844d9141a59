package dev.commitlog.raft;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one node's log storage acknowledged to JRaft, across the node's lives: the log after every
 * call that returned ({@link TermLog}), and the call in flight, if any. When the node dies
 * ({@link #lost}: a SIGKILL, or a power loss frozen at its crash image) that pair is the
 * expectation; the next life's {@link #loaded} log must be one of:
 * <ul>
 *   <li>the log after the last call that returned (an in-flight call left no trace);</li>
 *   <li>that log with the in-flight call applied whole (its record was durable, or in the page cache
 *       a SIGKILL leaves, before the death; its return was not seen);</li>
 *   <li>for an in-flight append, that log with a prefix of the append's entries (the log keeps
 *       records in order, and an append acknowledges none of them until it returns).</li>
 * </ul>
 * Anything else is an acknowledged call lost or undone, or a state no call sequence makes. JRaft's
 * log manager makes every mutation from one thread, so at most one call is in flight (checked).
 *
 * <p>Thread-safe; failures are collected, not thrown, because the calls come from JRaft's threads.
 */
final class AcknowledgedLog implements LogStorageObserver {
    private final String node;
    private TermLog acknowledged = new TermLog();
    private StorageCall inFlight;
    /** Set by {@link #lost}: what the next {@link #loaded} must match. The first life must load an empty log. */
    private Expectation expected = new Expectation(new TermLog(), null);
    /** Whether {@link #expected} comes from a death (not the first life or a wipe). */
    private boolean died;
    private final List<String> failures = new ArrayList<>();
    /** The last calls begun and returned, for failure messages. */
    private final ArrayDeque<String> recent = new ArrayDeque<>();
    private int restartsChecked;
    private int inFlightKept;
    private int inFlightAbsent;
    private int appendPrefixes;

    private record Expectation(TermLog acknowledged, StorageCall inFlight) {
    }

    AcknowledgedLog(String node) {
        this.node = node;
    }

    @Override
    public synchronized void loaded(long first, long[] terms) {
        if (expected != null) {
            check(expected, first, terms);
            if (died) {
                restartsChecked++;
            }
            expected = null;
            died = false;
        }
        acknowledged = TermLog.of(first, terms);
        inFlight = null;
        recent.clear();
        remember("loaded " + TermLog.describe(first, terms));
    }

    @Override
    public synchronized void beginning(StorageCall call) {
        if (expected != null) {
            return; // dead: what the frozen node still does is not part of any life
        }
        if (inFlight != null) {
            failures.add(node + ": " + call + " began while " + inFlight + " was in flight");
        }
        inFlight = call;
        remember("began " + call);
    }

    @Override
    public synchronized void done(StorageCall call, int result) {
        if (expected != null) {
            return;
        }
        if (inFlight == null || inFlight.kind() != call.kind() || inFlight.index() != call.index()) {
            failures.add(node + ": " + call + " returned, but the call in flight was " + inFlight);
            inFlight = null;
            return;
        }
        remember("returned " + result + " from " + inFlight);
        String problem = acknowledged.apply(inFlight, result);
        if (problem != null) {
            failures.add(node + ": " + problem);
        }
        inFlight = null;
    }

    /** The node died: from here on its calls are ignored, and the next life's log is checked against what it acknowledged. */
    synchronized void lost() {
        if (expected == null) {
            expected = new Expectation(acknowledged.copy(), inFlight);
            died = true;
        }
    }

    /** The node's directory was wiped: its next life starts empty. */
    synchronized void wiped() {
        expected = new Expectation(new TermLog(), null);
        died = false;
        acknowledged = new TermLog();
        inFlight = null;
    }

    private void check(Expectation expectation, long first, long[] terms) {
        TermLog before = expectation.acknowledged();
        StorageCall call = expectation.inFlight();
        if (before.sameAs(first, terms)) {
            if (call != null) {
                inFlightAbsent++;
            }
            return;
        }
        if (call != null) {
            for (int kept = call.fullResult(); kept >= 1; kept--) {
                TermLog after = before.copy();
                after.apply(call, kept);
                if (after.sameAs(first, terms)) {
                    if (kept == call.fullResult()) {
                        inFlightKept++;
                    } else {
                        appendPrefixes++;
                    }
                    return;
                }
            }
        }
        failures.add(node + " restarted with the log " + TermLog.describe(first, terms) + ", but it had acknowledged "
                + before + (call == null ? " with no call in flight" : " with " + call + " in flight") + "; its last calls: " + recent);
    }

    private void remember(String event) {
        if (recent.size() == 12) {
            recent.removeFirst();
        }
        recent.addLast(event);
    }

    synchronized List<String> failures() {
        return new ArrayList<>(failures);
    }

    /** Restarts after a death whose log was checked. */
    synchronized int restartsChecked() {
        return restartsChecked;
    }

    /** Restarts where a call was in flight at the death: kept whole, absent, or an append kept in part. */
    synchronized int[] inFlightOutcomes() {
        return new int[] {inFlightKept, inFlightAbsent, appendPrefixes};
    }

    synchronized TermLog acknowledged() {
        return acknowledged.copy();
    }

    @Override
    public synchronized String toString() {
        return node + ": " + acknowledged + (inFlight != null ? ", in flight " + inFlight : "") + " " + Arrays.toString(inFlightOutcomes());
    }
}
