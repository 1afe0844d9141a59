package dev.commitlog.testkit;

import dev.commitlog.CorruptionListener;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A corruption listener that keeps every report with its kind of damage, so tests decide by kind
 * (never by the reason's text) and still print what an operator would read.
 */
public final class DamageReports implements CorruptionListener {
    /** One report: where, what kind, and the text the log gave. */
    public record Report(Path file, long offset, long position, Damage damage, String reason, String action) {
        @Override
        public String toString() {
            return file.getFileName() + "@" + offset + " (position " + position + ", " + damage + "): " + reason + "; " + action;
        }
    }

    private final List<Report> reports = new CopyOnWriteArrayList<>();

    @Override
    public void onCorruption(Path file, long offset, long position, Damage damage, String reason, String action) {
        reports.add(new Report(file, offset, position, damage, reason, action));
    }

    @Override
    public void onCorruption(Path file, long offset, long position, String reason, String action) {
        throw new AssertionError("a report without its kind of damage: " + reason);
    }

    public List<Report> all() {
        return List.copyOf(reports);
    }

    /** Whether every report so far is a torn tail. */
    public boolean onlyTornTails() {
        return reports.stream().allMatch(report -> report.damage() == Damage.TORN_TAIL);
    }

    @Override
    public String toString() {
        return reports.toString();
    }
}
