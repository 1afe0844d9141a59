package dev.commitlog.codec;

/**
 * Receives decoded records, in log position order, from {@code CommitLog.replay(long, RecordCodec,
 * TypedRecordHandler)} or a {@link TypedTailer}.
 *
 * @param <T> the record type
 */
@FunctionalInterface
public interface TypedRecordHandler<T> {
    /**
     * @param position the record's log position (as {@code append} returned it)
     * @param record   the decoded record; if the codec reuses one instance (it says so), valid only
     *                 during this call
     */
    void onRecord(long position, T record);
}
