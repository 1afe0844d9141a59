package dev.commitlog.bench.sut;

import dev.commitlog.config.SyncMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The commit log's sync modes as the command line names them, and the columns they make. */
public final class CommitLogModes {

    private CommitLogModes() {
    }

    /** Every {@link SyncMode}, lower case, in declaration order: the default {@code --modes}. */
    public static List<String> names() {
        return Arrays.stream(SyncMode.values()).map(m -> m.name().toLowerCase(Locale.ROOT)).toList();
    }

    /** One contender per mode, except Group, which makes one per window ({@code group-2ms}, ...). */
    public static List<CommitLogContender> contenders(List<String> modes, List<Integer> groupWindowsMs) {
        List<CommitLogContender> out = new ArrayList<>();
        for (String name : modes) {
            SyncMode mode = SyncMode.valueOf(name.toUpperCase(Locale.ROOT));
            if (mode == SyncMode.GROUP) {
                groupWindowsMs.forEach(ms -> out.add(new CommitLogContender(mode, Duration.ofMillis(ms))));
            } else {
                out.add(new CommitLogContender(mode, null));
            }
        }
        return out;
    }

    /** The {@code --ablation} columns with these labels, in {@link SyncAblation} declaration order. */
    public static List<CommitLogContender> ablations(List<String> labels) {
        return Arrays.stream(SyncAblation.values()).filter(a -> labels.contains(a.label())).map(CommitLogContender::new).toList();
    }
}
