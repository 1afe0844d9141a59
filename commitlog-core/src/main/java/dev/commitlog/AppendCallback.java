package dev.commitlog;

import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Told when an asynchronous append is durable, or that it never will be: a lambda
 * {@code (position, failure) -> ...}, where {@code failure} is null when the record at
 * {@code position} is durable. One object may serve any number of appends (that is what makes
 * {@link CommitLog#appendAsync(byte[], int, int, AppendCallback)} allocation-free): the position
 * says which record. A non-capturing lambda, or one kept in a field, is one object for every append.
 *
 * <pre>{@code
 * AppendCallback ack = (position, failure) -> {
 *     if (failure == null) replies.acknowledge(position); else replies.fail(position, failure);
 * };
 * log.appendAsync(bytes, 0, bytes.length, ack);
 * // or, from two method references:
 * AppendCallback same = AppendCallback.of(replies::acknowledge, replies::fail);
 * }</pre>
 *
 * <p>Calls run on the log's completion thread, in log position order, after the flush that covers
 * the record has returned. Keep them short; hand heavy work to another thread. An exception thrown
 * from a call is logged and does not stop later completions.
 */
@FunctionalInterface
public interface AppendCallback {
    /**
     * The record at {@code position} is durable ({@code failure == null}), or will not be
     * acknowledged ({@code failure != null}): a flush failed before covering it, or the log closed
     * first. A failed record may or may not be found by a later replay.
     *
     * @param position the record's log position, as {@code appendAsync} returned it
     * @param failure  null when durable; otherwise why it will not be acknowledged
     */
    void completed(long position, Throwable failure);

    /** What {@link #of} calls when an append fails. */
    @FunctionalInterface
    interface FailureHandler {
        void failed(long position, Throwable failure);
    }

    /**
     * A callback from one handler for durable records and one for failed ones (e.g. two method
     * references). Make it once and reuse it: each call of this factory is an allocation.
     */
    static AppendCallback of(LongConsumer durable, FailureHandler failed) {
        Objects.requireNonNull(durable, "durable");
        Objects.requireNonNull(failed, "failed");
        return (position, failure) -> {
            if (failure == null) {
                durable.accept(position);
            } else {
                failed.failed(position, failure);
            }
        };
    }
}
