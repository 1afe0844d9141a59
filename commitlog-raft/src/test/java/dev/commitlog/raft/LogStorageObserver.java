package dev.commitlog.raft;

/**
 * Told by an {@link ObservedLogStorage} what its storage holds after {@code init} and each
 * mutation JRaft makes: before the call ({@link #beginning}) and after it returned
 * ({@link #done}), on the thread that made it.
 */
interface LogStorageObserver {
    /** After a successful {@code init}: the terms of entries {@code first ... first + terms.length - 1}. */
    void loaded(long first, long[] terms);

    void beginning(StorageCall call);

    /**
     * The call returned {@code result}: entries appended, or 1 (true) / 0 (false) for a marker call.
     * {@code call} names the call by its kind and index; an append's terms are those {@link #beginning} gave.
     */
    void done(StorageCall call, int result);
}
