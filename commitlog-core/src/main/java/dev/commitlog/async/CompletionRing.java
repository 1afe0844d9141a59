package dev.commitlog.async;

import dev.commitlog.AppendCallback;
import dev.commitlog.codec.TypedAppendCallback;
import java.util.concurrent.CompletableFuture;

/**
 * One submitting thread's asynchronous appends that are not yet completed, in position order: a
 * single-producer, single-consumer ring of preallocated slots (nothing is allocated per append).
 *
 * <p>Assumptions and guarantees: only the owning thread calls {@link #hasSpace} and {@link #add};
 * only the completion thread reads and removes. {@code tail} is published with a release store
 * after the slot is written, {@code head} with a release store after the slot is cleared, so each
 * side sees whole slots. The owner adds an entry <em>before</em> publishing the record, so by the
 * time a flush covers a record, its entry is visible to the completion thread.
 */
final class CompletionRing {
    /** The submitting thread that owns the ring. */
    private final Thread owner;
    private final long[] positions;
    private final long[] ends;
    private final Object[] targets;
    /** The record handed back to a {@link TypedAppendCallback} target; null for the others. */
    private final Object[] attachments;
    private final int mask;
    private volatile long head;
    private volatile long tail;

    CompletionRing(int capacity, Thread owner) {
        this.owner = owner;
        int size = Integer.highestOneBit(Math.max(2, capacity) - 1) << 1;
        positions = new long[size];
        ends = new long[size];
        targets = new Object[size];
        attachments = new Object[size];
        mask = size - 1;
    }

    boolean hasSpace() {
        return tail - head < targets.length;
    }

    /** Owner only, after {@link #hasSpace} returned true. */
    void add(long position, long end, Object target, Object attachment) {
        long t = tail;
        int i = (int) t & mask;
        positions[i] = position;
        ends[i] = end;
        targets[i] = target;
        attachments[i] = attachment;
        tail = t + 1;
    }

    boolean isEmpty() {
        return head == tail;
    }

    /**
     * Whether nothing can be added any more and nothing is left to complete: the owner has ended
     * and the ring is empty. Any thread. The owner's last {@code tail} store comes before its end,
     * and seeing it ended ({@link Thread#isAlive}) synchronizes with that end, so the tail read
     * after it is the last one.
     */
    boolean retired() {
        return !owner.isAlive() && isEmpty();
    }

    /** The end position of the oldest entry; Long.MAX_VALUE when empty. Completion thread only. */
    long headEnd() {
        long h = head;
        return h == tail ? Long.MAX_VALUE : ends[(int) h & mask];
    }

    /** The position of the oldest entry; Long.MAX_VALUE when empty. Completion thread only. */
    long headPosition() {
        long h = head;
        return h == tail ? Long.MAX_VALUE : positions[(int) h & mask];
    }

    /** Removes the oldest entry and completes it. Completion thread only. */
    void completeHead(Throwable failure) {
        long h = head;
        int i = (int) h & mask;
        long position = positions[i];
        Object target = targets[i];
        Object attachment = attachments[i];
        targets[i] = null;
        attachments[i] = null; // the ring keeps no record alive past its completion
        head = h + 1;
        complete(target, attachment, position, failure);
    }

    @SuppressWarnings("unchecked")
    private static void complete(Object target, Object attachment, long position, Throwable failure) {
        if (target instanceof AppendCallback callback) {
            callback.completed(position, failure);
        } else if (target instanceof TypedAppendCallback<?> typed) {
            ((TypedAppendCallback<Object>) typed).completed(attachment, position, failure);
        } else {
            CompletableFuture<Long> future = (CompletableFuture<Long>) target;
            if (failure == null) {
                future.complete(position);
            } else {
                future.completeExceptionally(failure);
            }
        }
    }
}
