package dev.commitlog.raft;

import java.util.Arrays;

/**
 * A Raft log as the terms of its entries, index {@code first} to {@code last}: what a node's log
 * storage must hold. In Raft an index and a term name one entry (Log Matching), so two logs with
 * the same bounds and terms hold the same entries. Mutable; {@link #copy} before keeping a state.
 * An empty log that was never truncated starts at index 1, like the storage.
 */
final class TermLog {
    private long first = 1;
    private long last;
    /** {@code terms[i]} is the term of entry {@code first + i}. */
    private long[] terms = new long[64];

    static TermLog of(long first, long[] terms) {
        TermLog log = new TermLog();
        log.first = first;
        log.last = first + terms.length - 1;
        log.terms = Arrays.copyOf(terms, Math.max(64, terms.length));
        return log;
    }

    TermLog copy() {
        return of(first, Arrays.copyOf(terms, size()));
    }

    long first() {
        return first;
    }

    long last() {
        return last;
    }

    int size() {
        return (int) (last - first + 1);
    }

    /**
     * Applies {@code call} as the storage does when it returns {@code result} (an append keeps its
     * first {@code result} entries; a marker that returned false changed nothing), with JRaft's
     * {@code LogStorage} semantics. Returns null, or what makes the call one this model (and JRaft's
     * log manager) never issues: an append that starts outside {@code [first, last + 1]}.
     */
    String apply(StorageCall call, int result) {
        if (result <= 0) {
            return null;
        }
        long index = call.index();
        if (result > call.fullResult()) {
            return call + " returned " + result + ", more than it was given";
        }
        switch (call.kind()) {
            case APPEND -> {
                // Each entry is put at its index, as JRaft's storages do: over an entry the log holds (after a
                // reset the kept entry is overwritten by the leader's), or at last + 1.
                if (index < first || index > last + 1) {
                    return "an append at " + index + " to a log [" + first + ", " + last + "]: outside [first, last + 1]";
                }
                ensure((int) (index - first) + result);
                System.arraycopy(call.terms(), 0, terms, (int) (index - first), result);
                last = Math.max(last, index + result - 1);
            }
            case TRUNCATE_PREFIX -> {
                if (index <= first) {
                    return null;
                }
                if (index > last) {
                    first = index;
                    last = index - 1;
                    return null;
                }
                int drop = (int) (index - first);
                System.arraycopy(terms, drop, terms, 0, size() - drop);
                first = index;
            }
            case TRUNCATE_SUFFIX -> {
                if (index < last) {
                    last = Math.max(index, first - 1);
                }
            }
            case RESET -> {
                // The entry at the index stays, or a no-op of term 0 takes its place (JRaft's RocksDB storage does the same).
                long kept = index >= first && index <= last ? terms[(int) (index - first)] : 0;
                first = index;
                last = index;
                terms[0] = kept;
            }
        }
        return null;
    }

    private void ensure(int capacity) {
        if (capacity > terms.length) {
            terms = Arrays.copyOf(terms, Math.max(capacity, terms.length * 2));
        }
    }

    boolean sameAs(long otherFirst, long[] otherTerms) {
        return first == otherFirst && size() == otherTerms.length && Arrays.equals(terms, 0, size(), otherTerms, 0, otherTerms.length);
    }

    @Override
    public String toString() {
        return describe(first, Arrays.copyOf(terms, size()));
    }

    /** Bounds and terms, run-length encoded. */
    static String describe(long first, long[] terms) {
        return "[" + first + ", " + (first + terms.length - 1) + "] terms " + StorageCall.runs(terms);
    }
}
