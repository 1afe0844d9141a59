package dev.commitlog.sync;

/** What one flush attempt did. */
enum FlushAttempt {
    /** This thread ran a flush (or it failed). */
    FLUSHED,
    /** There was nothing to flush. */
    NOTHING,
    /** Another thread holds the role. */
    BUSY
}
