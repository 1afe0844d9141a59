package dev.commitlog;

import net.openhft.chronicle.bytes.Bytes;

/**
 * Receives replayed or tailed records, in log position order, as Chronicle {@code Bytes} (for
 * {@link CommitLog#replayBytes} and {@code LogTailer.pollBytes}); {@link RecordHandler} is the same
 * with a plain {@link java.nio.ByteBuffer}.
 *
 * <p>The {@code Bytes} is one view on the mapped segment, re-pointed at each record (nothing is
 * allocated per record), valid only during the call: copy what you keep.
 */
@FunctionalInterface
public interface BytesRecordHandler {
    /**
     * @param position the record's log position (as {@code append} returned it)
     * @param payload  the record, readable from {@code readPosition()} to {@code readLimit()}; a
     *                 view on the mapped segment, valid only during this call (copy what you keep)
     */
    void onRecord(long position, Bytes<?> payload);
}
