package dev.commitlog.codec;

/**
 * Told when an asynchronous typed append is durable, or that it never will be, and handed back
 * the record it was given: {@code (record, position, failure) -> ...}. One object serves every
 * append of {@code CommitLog.appendAsync(T, RecordCodec, TypedAppendCallback)}: the record says
 * which append completed, so no lambda need capture it (a capturing lambda per append is an
 * allocation per append).
 *
 * <pre>{@code
 * TypedAppendCallback<Mutation> done = (mutation, position, failure) -> {
 *     if (failure == null) mutation.reply().acknowledge(position); else mutation.reply().fail(failure);
 *     pool.release(mutation); // the log holds no reference to it after this call
 * };
 * log.appendAsync(mutation, codec, done);
 * }</pre>
 *
 * <p>The log keeps a reference to the record from the append until this call: a pooled record
 * may be reused once its callback ran (its bytes were encoded into the log before
 * {@code appendAsync} returned, so changing it earlier changes nothing logged). Calls run on the
 * log's completion thread, in log position order, after the flush that covers the record; an
 * exception thrown from a call is logged and does not stop later completions.
 *
 * @param <T> the record type
 */
@FunctionalInterface
public interface TypedAppendCallback<T> {
    /**
     * @param record   the record that was appended
     * @param position its log position, as {@code appendAsync} returned it
     * @param failure  null when durable; otherwise why it will not be acknowledged (a flush failed
     *                 before covering it, or the log closed first)
     */
    void completed(T record, long position, Throwable failure);
}
