package dev.commitlog.raft;

import java.util.Arrays;

/**
 * What one group's Raft log must hold: its first and last index and, for each index in between,
 * the entry's term and the sequence number its data was made from ({@link #NO_OP} for the no-op a
 * reset keeps when the index held no entry). Immutable: each transition returns a new log, so a
 * history of them can be kept and compared with what a crash image recovers.
 *
 * <p>Invariants: {@code last >= first - 1}; {@code terms} and {@code seqs} hold exactly
 * {@code last - first + 1} elements. An empty log that was never truncated starts at index 1,
 * like the storage.
 */
record ModelLog(long first, long last, long[] terms, long[] seqs) {
    static final long NO_OP = -1;
    static final ModelLog EMPTY = new ModelLog(1, 0, new long[0], new long[0]);

    ModelLog {
        if (terms.length != last - first + 1 || seqs.length != terms.length) {
            throw new IllegalArgumentException("model log [" + first + ", " + last + "] with " + terms.length + " terms");
        }
    }

    int size() {
        return terms.length;
    }

    long term(long index) {
        return terms[(int) (index - first)];
    }

    long seq(long index) {
        return seqs[(int) (index - first)];
    }

    /** Entries {@code last + 1 ...} with the given terms and data sequence numbers. */
    ModelLog append(long[] newTerms, long[] newSeqs) {
        long[] t = Arrays.copyOf(terms, terms.length + newTerms.length);
        long[] s = Arrays.copyOf(seqs, seqs.length + newSeqs.length);
        System.arraycopy(newTerms, 0, t, terms.length, newTerms.length);
        System.arraycopy(newSeqs, 0, s, seqs.length, newSeqs.length);
        return new ModelLog(first, last + newTerms.length, t, s);
    }

    /** JRaft's truncatePrefix for {@code first <= firstIndexKept <= last + 1}. */
    ModelLog truncatePrefix(long firstIndexKept) {
        int drop = (int) (firstIndexKept - first);
        return new ModelLog(firstIndexKept, last, Arrays.copyOfRange(terms, drop, terms.length),
                Arrays.copyOfRange(seqs, drop, seqs.length));
    }

    /** JRaft's truncateSuffix for {@code first - 1 <= lastIndexKept <= last}. */
    ModelLog truncateSuffix(long lastIndexKept) {
        int keep = (int) (lastIndexKept - first + 1);
        return new ModelLog(first, lastIndexKept, Arrays.copyOf(terms, keep), Arrays.copyOf(seqs, keep));
    }

    /** JRaft's reset: only the entry at {@code nextLogIndex} stays (a no-op of term 0 if there was none). */
    ModelLog reset(long nextLogIndex) {
        boolean held = nextLogIndex >= first && nextLogIndex <= last;
        return new ModelLog(nextLogIndex, nextLogIndex, new long[] {held ? term(nextLogIndex) : 0},
                new long[] {held ? seq(nextLogIndex) : NO_OP});
    }

    /** Whether this log is {@code longer} cut after some index at or past {@code shorter}'s last: a prefix of an append. */
    boolean isAppendPrefix(ModelLog shorter, ModelLog longer) {
        return first == longer.first && last >= shorter.last && last <= longer.last
                && Arrays.equals(terms, 0, size(), longer.terms, 0, size())
                && Arrays.equals(seqs, 0, size(), longer.seqs, 0, size());
    }

    boolean sameAs(ModelLog other) {
        return first == other.first && last == other.last && Arrays.equals(terms, other.terms) && Arrays.equals(seqs, other.seqs);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("[").append(first).append(", ").append(last).append("]");
        int shown = Math.min(size(), 6);
        for (int i = Math.max(0, size() - shown); i < size(); i++) {
            b.append(i == Math.max(0, size() - shown) ? " ... " : " ").append(first + i).append(":t").append(terms[i])
                    .append("/s").append(seqs[i]);
        }
        return b.toString();
    }
}
