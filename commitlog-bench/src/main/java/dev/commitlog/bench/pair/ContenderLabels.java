package dev.commitlog.bench.pair;

import dev.commitlog.bench.UsageException;
import dev.commitlog.bench.peer.PeerCatalog;
import dev.commitlog.bench.sut.BaselineContender;
import dev.commitlog.bench.sut.CommitLogContender;
import dev.commitlog.bench.sut.CommitLogModes;
import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.SyncAblation;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Any sweep column by the label the sweep's tables give it: {@code batch}, {@code group-2ms}, {@code adaptive-nogather}, {@code rocksdb}. */
final class ContenderLabels {
    private static final Pattern GROUP = Pattern.compile("group-(\\d{1,5})ms");
    private static final String BASELINE = "baseline-";

    private ContenderLabels() {
    }

    /** The labels a user can name, for messages. */
    static String known() {
        return String.join(", ", CommitLogModes.names().stream().map(m -> m.equals("group") ? "group-Nms" : m).toList())
                + ", " + String.join(", ", SyncAblation.labels()) + ", " + String.join(", ", PeerCatalog.names());
    }

    /** Whether {@code label} names a column; checked while parsing, before any native library loads. */
    static String check(String flag, String label, boolean baseline) throws UsageException {
        String l = label.toLowerCase(Locale.ROOT);
        if (l.startsWith(BASELINE)) {
            if (!baseline) {
                throw new UsageException(flag + ": '" + label + "' needs --baseline-jar (the build whose engine it opens)");
            }
            String engine = l.substring(BASELINE.length());
            if (!CommitLogModes.names().contains(engine) && !GROUP.matcher(engine).matches() || engine.equals("group")) {
                throw new UsageException(flag + ": '" + label + "' names no mode (baseline-periodic, baseline-batch, "
                        + "baseline-adaptive, baseline-group-Nms)");
            }
            return l;
        }
        Matcher group = GROUP.matcher(l);
        boolean mode = CommitLogModes.names().contains(l) && !l.equals("group");
        boolean window = group.matches() && Integer.parseInt(group.group(1)) >= 1 && Integer.parseInt(group.group(1)) <= 60_000;
        if (mode || window || SyncAblation.labels().contains(l) || PeerCatalog.exists(l)) {
            return l;
        }
        throw new UsageException(flag + ": unknown column '" + label + "' (columns: " + known() + ")");
    }

    /** The contender a checked label names; a peer's native library loads here. */
    static Contender create(String label, Path baseline) throws IOException {
        if (label.startsWith(BASELINE)) {
            String engine = label.substring(BASELINE.length());
            Matcher window = GROUP.matcher(engine);
            return window.matches()
                    ? new BaselineContender(baseline, "group", Duration.ofMillis(Integer.parseInt(window.group(1))))
                    : new BaselineContender(baseline, engine, null);
        }
        Matcher group = GROUP.matcher(label);
        if (group.matches()) {
            return new CommitLogContender(SyncMode.GROUP, Duration.ofMillis(Integer.parseInt(group.group(1))));
        }
        if (CommitLogModes.names().contains(label)) {
            return new CommitLogContender(SyncMode.valueOf(label.toUpperCase(Locale.ROOT)), null);
        }
        List<CommitLogContender> ablation = CommitLogModes.ablations(List.of(label));
        return ablation.isEmpty() ? PeerCatalog.create(label) : ablation.get(0);
    }
}
