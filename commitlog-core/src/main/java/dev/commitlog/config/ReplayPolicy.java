package dev.commitlog.config;

/**
 * What replay does when a record fails its checks ({@code commitlog_replay_policy}).
 * YAML names: {@code tolerate_tail | strict | skip_corrupt}.
 */
public enum ReplayPolicy {
    /**
     * A damaged record at the end of the newest segment is a write torn by a crash and ends the log;
     * damage anywhere else is corruption and fails the replay.
     */
    TOLERATE_TAIL,
    /** Any damaged record fails the replay, even a torn tail. */
    STRICT,
    /** Damaged records are reported and skipped; replay continues with the next readable record. */
    SKIP_CORRUPT
}
