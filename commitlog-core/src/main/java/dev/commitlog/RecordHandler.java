package dev.commitlog;

import net.openhft.chronicle.bytes.Bytes;

/** Receives replayed records, in log position order. */
@FunctionalInterface
public interface RecordHandler {
    /**
     * @param position the record's log position (as {@code append} returned it)
     * @param payload  the record, readable from {@code readPosition()} to {@code readLimit()}; a
     *                 view on the mapped segment, valid only during this call (copy what you keep)
     */
    void onRecord(long position, Bytes<?> payload);
}
