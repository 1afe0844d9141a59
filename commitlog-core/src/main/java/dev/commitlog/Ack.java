package dev.commitlog;

/**
 * How long one append waits, whatever the log's sync mode: PostgreSQL's per-transaction
 * {@code synchronous_commit}, for a log.
 */
public enum Ack {
    /** As the sync mode says: Periodic returns at once, Batch, Group and Adaptive after the covering flush. */
    MODE,
    /**
     * Returns only after a flush that covers the record, flushing at once (in the calling thread if
     * no flush is running), in every mode: a Periodic log's one important record, or a Group log's
     * record that should not wait for the window.
     */
    DURABLE,
    /**
     * Returns once the record is in the segment, like a Periodic append, in every mode: Batch, Group
     * and Adaptive flush it with the next flush (one is asked for) without making the caller wait.
     * A crash before that flush loses it.
     */
    WRITTEN
}
