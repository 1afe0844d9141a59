package dev.commitlog.config;

/**
 * What the commit log does when a write or sync fails ({@code commit_failure_policy}).
 * YAML names: {@code stop | die}.
 */
public enum CommitFailurePolicy {
    /** Refuse further appends until the log is reopened; the process keeps running. */
    STOP,
    /** Halt the JVM, so a supervisor restarts it and replay recovers what was durable. */
    DIE
}
