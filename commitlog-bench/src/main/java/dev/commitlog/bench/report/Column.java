package dev.commitlog.bench.report;

import dev.commitlog.bench.sut.Contender;

/**
 * One column of the tables: a contender's label and what the reports need to know about it.
 *
 * @param label   the heading: the mode for the commit log ({@code batch}, {@code group-10ms}), else the peer
 * @param system  {@code commitlog} or the peer's name
 * @param durable whether an acknowledged append survives a crash
 * @param ablation whether it is an {@code --ablation} column: in the tables, not in ratios or targets
 */
public record Column(String label, String system, boolean durable, boolean ablation) {

    public static final String COMMITLOG = "commitlog";

    public static Column of(Contender contender) {
        return new Column(contender.label(), contender.system(), contender.durable(), contender.ablation());
    }

    public boolean commitLog() {
        return system.equals(COMMITLOG);
    }
}
