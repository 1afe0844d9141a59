package dev.commitlog.bench.sut;

import java.util.List;
import java.util.Locale;

/**
 * The commit log's sync modes as the command line names them. PLACEHOLDER until commitlog-core
 * lands: then this reads {@code dev.commitlog.config.SyncMode.values()}.
 */
public final class CommitLogModes {

    private CommitLogModes() {
    }

    /** Every mode, lower case, in declaration order: the default {@code --modes}. */
    public static List<String> names() {
        return List.of("periodic", "batch", "group");
    }

    /** Whether the mode has a group window, so that each {@code --group-window-ms} is a column. */
    public static boolean hasWindow(String mode) {
        return mode.toLowerCase(Locale.ROOT).equals("group");
    }

    /** PLACEHOLDER: no commit-log columns until the core lands. */
    public static List<Contender> contenders(List<String> modes, List<Integer> groupWindowsMs) {
        return List.of();
    }
}
