package dev.commitlog;

/**
 * Told when an asynchronous append is durable, or that it never will be. One object may serve any
 * number of appends (that is what makes {@link CommitLog#appendAsync(byte[], int, int, AppendCallback)}
 * allocation-free): the position says which record.
 *
 * <p>Both methods run on the log's completion thread, in log position order, after the flush that
 * covers the record has returned. Keep them short; hand heavy work to another thread. An exception
 * thrown from them is logged and does not stop later completions.
 */
public interface AppendCallback {
    /** The record at {@code position} is durable. */
    void durable(long position);

    /**
     * The record at {@code position} will not be acknowledged: a flush failed before covering it, or
     * the log closed first. It may or may not be found by a later replay.
     */
    void failed(long position, Throwable cause);
}
