package dev.commitlog.raft;

import java.util.ArrayList;
import java.util.List;

/**
 * One mutation of a JRaft {@code LogStorage}, as {@link LogStorageObserver} sees it: an append
 * (its first index and the terms of its entries) or a marker call (truncatePrefix, truncateSuffix,
 * reset) and its index. The text form is what {@link RaftNodeChild} prints and the parent reads:
 * {@code A first runs} or {@code TP|TS|R index}, where runs are the terms run-length encoded
 * ({@code term*count,term*count}), so an append of thousands of entries of one term is one token.
 */
record StorageCall(Kind kind, long index, long[] terms) {
    enum Kind {
        APPEND("A"), TRUNCATE_PREFIX("TP"), TRUNCATE_SUFFIX("TS"), RESET("R");

        final String code;

        Kind(String code) {
            this.code = code;
        }

        static Kind of(String code) {
            for (Kind kind : values()) {
                if (kind.code.equals(code)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("no storage call is coded '" + code + "'");
        }
    }

    static StorageCall append(long first, long[] terms) {
        return new StorageCall(Kind.APPEND, first, terms);
    }

    static StorageCall marker(Kind kind, long index) {
        return new StorageCall(kind, index, new long[0]);
    }

    /** What the call returns when it does all it was asked: the entry count of an append, 1 (true) for a marker. */
    int fullResult() {
        return kind == Kind.APPEND ? terms.length : 1;
    }

    String encode() {
        return kind == Kind.APPEND ? kind.code + " " + index + " " + runs(terms) : kind.code + " " + index;
    }

    /** The call coded by {@code parts[from]} and what follows it. */
    static StorageCall decode(String[] parts, int from) {
        Kind kind = Kind.of(parts[from]);
        long index = Long.parseLong(parts[from + 1]);
        return kind == Kind.APPEND ? append(index, parseRuns(parts[from + 2])) : marker(kind, index);
    }

    /** The terms run-length encoded: {@code term*count} joined by commas; {@code -} for none. */
    static String runs(long[] terms) {
        if (terms.length == 0) {
            return "-";
        }
        StringBuilder text = new StringBuilder();
        int start = 0;
        for (int i = 1; i <= terms.length; i++) {
            if (i == terms.length || terms[i] != terms[start]) {
                if (start > 0) {
                    text.append(',');
                }
                text.append(terms[start]).append('*').append(i - start);
                start = i;
            }
        }
        return text.toString();
    }

    static long[] parseRuns(String text) {
        if (text.equals("-")) {
            return new long[0];
        }
        List<long[]> runs = new ArrayList<>();
        int total = 0;
        for (String run : text.split(",")) {
            int star = run.indexOf('*');
            long[] parsed = {Long.parseLong(run.substring(0, star)), Long.parseLong(run.substring(star + 1))};
            runs.add(parsed);
            total += (int) parsed[1];
        }
        long[] terms = new long[total];
        int at = 0;
        for (long[] run : runs) {
            for (int i = 0; i < run[1]; i++) {
                terms[at++] = run[0];
            }
        }
        return terms;
    }

    @Override
    public String toString() {
        return kind == Kind.APPEND ? "append [" + index + ", " + (index + terms.length - 1) + "] terms " + runs(terms)
                : kind + "(" + index + ")";
    }
}
