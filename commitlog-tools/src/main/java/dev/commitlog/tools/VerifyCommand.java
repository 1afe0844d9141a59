package dev.commitlog.tools;

import dev.commitlog.CorruptLogException;
import dev.commitlog.CorruptionListener.Damage;
import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.repair.LogInspector;
import dev.commitlog.segment.SegmentHeader;
import dev.commitlog.segment.SegmentRef;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code verify DIR}: whether {@code CommitLog.open} would accept the log, decided by the engine's
 * own walk under the same policy. Every frame's checksum is checked.
 *
 * <p>A torn tail (a bad frame at or after the highest durable mark: what a crash leaves) follows
 * the replay policy: under {@code tolerate_tail}, the default, open cuts it off, so verify exits 0
 * and prints a notice; under {@code --strict} open refuses it, so verify exits 1. Corruption (damage
 * below the durable mark, a damaged segment header, a missing segment) exits 1 either way.
 */
@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Check every frame and segment header the way CommitLog.open does, and say whether the log opens. Read-only.",
                "The end of the log is the position just past its last valid record (that record's position plus its frame size).",
                "Exit code 0: the log opens (a torn tail, which open cuts off, is printed as a notice). "
                        + "1: the first damage open would refuse, with its position and reason.",
                KeyOptions.HELP})
final class VerifyCommand implements Callable<Integer> {
    @Mixin
    LogDirectory logDirectory;

    @Mixin
    KeyOptions keyOptions;

    @Option(names = "--strict", description = "judge as commitlog_replay_policy: strict does: a torn tail is damage too")
    boolean strict;

    @Override
    public Integer call() throws IOException {
        Path directory = logDirectory.checked();
        ToolKeys keys = keyOptions.keys();
        PrintWriter out = logDirectory.out();
        ReplayPolicy policy = strict ? ReplayPolicy.STRICT : ReplayPolicy.TOLERATE_TAIL;
        String policyName = strict ? "strict" : "tolerate_tail";
        Verdict verdict = new Verdict();
        LogInspector.Summary summary;
        try {
            summary = keys.walk(directory, 0, policy, verdict);
        } catch (CorruptLogException e) {
            boolean torn = e.damage() == Damage.TORN_TAIL;
            out.println((torn ? "TORN TAIL" : "CORRUPT") + " at " + Where.at(e.position(), e.file(), e.offset()) + ": " + e.reason());
            out.println("the log does not open under commitlog_replay_policy: " + policyName + " (" + verdict.span.records()
                    + " records verified before it); to go on: " + wayForward(directory, e, torn));
            return ExitCode.DAMAGED;
        }
        LogSpan span = verdict.span;
        String range = span.records() == 0 ? "no records" : "records at positions " + span.first() + " to " + span.last();
        out.println("OK: " + summary.records() + " records verified (" + range + "); the log ends at position " + span.describeEnd());
        if (verdict.tornTail != null) {
            out.println("notice: " + verdict.tornTail + "; open cuts it off under commitlog_replay_policy: " + policyName
                    + " (strict would refuse: verify --strict)");
        }
        for (String afterEnd : verdict.afterEnd) {
            out.println("notice: " + afterEnd + "; open reports it and deletes the file under commitlog_replay_policy: " + policyName
                    + " (strict would refuse: verify --strict)");
        }
        return ExitCode.OK;
    }

    /**
     * What to run next. A damaged header makes the whole file unreadable: truncate-after at its
     * position moves it and every later file into a backup; when it is the first segment file, moving
     * that file alone out of the directory keeps the rest (the log then starts at the next file).
     */
    private static String wayForward(Path directory, CorruptLogException e, boolean torn) throws IOException {
        String truncate = "truncate-after " + directory + " " + e.position();
        if (e.damage() != Damage.DAMAGED_HEADER) {
            return truncate + " (backs up what it cuts)" + (torn ? "" : ", or open with commitlog_replay_policy: skip_corrupt");
        }
        List<LogInspector.SegmentInfo> segments = new LogInspector().segments(directory);
        boolean first = !segments.isEmpty() && segments.get(0).ref().path().equals(e.file());
        String advice = truncate + " (moves " + e.file().getFileName() + " and every later segment file into a backup)";
        if (first) {
            advice += ", or move " + e.file().getFileName() + " alone out of " + directory
                    + " (keep it for inspection): the log then starts at the next segment file";
        }
        return advice + ", or open with commitlog_replay_policy: skip_corrupt (skips the file)";
    }

    private static final class Verdict implements LogInspector.Observer {
        private final LogSpan span = new LogSpan();
        private String tornTail;
        private final List<String> afterEnd = new ArrayList<>();

        @Override
        public void onSegment(SegmentRef ref, SegmentHeader header) {
            span.onSegment(ref, header);
        }

        @Override
        public boolean onRecord(long position, ByteBuffer payload) {
            return span.onRecord(position, payload);
        }

        @Override
        public void onCorruption(Path file, long offset, long position, Damage damage, String reason, String action) {
            // Under tolerate_tail only a torn tail, and damaged headers of files after the end, are reported; everything else throws.
            if (damage == Damage.TORN_TAIL) {
                tornTail = "TORN TAIL at " + Where.at(position, file, offset) + ": " + reason;
            } else {
                afterEnd.add("DAMAGE AFTER THE END in " + file.getFileName() + ": " + reason);
            }
        }
    }
}
