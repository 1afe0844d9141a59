package dev.commitlog;

import java.nio.ByteBuffer;

/**
 * Receives replayed or tailed records, in log position order, as plain {@link ByteBuffer}s: no
 * Chronicle type in sight. (For a Chronicle {@code Bytes} view, see {@link BytesRecordHandler},
 * taken by {@code replayBytes} and {@code pollBytes}.)
 *
 * <p>The buffer handed to {@link #onRecord} is a read-only view on the mapped segment file:
 * <ul>
 *   <li>its {@code position()} is the record's first byte and its {@code limit()} is just past the
 *       last: {@code remaining()} is the record's length. Absolute gets may reach outside the
 *       record (the view spans the whole segment); stay within position..limit;</li>
 *   <li>it is valid only during the call: copy what you keep (e.g. {@code byte[] copy = new
 *       byte[record.remaining()]; record.get(copy)});</li>
 *   <li>it is reused: one view per replay or poll (per segment file), repositioned for each record,
 *       so nothing is allocated per record. Moving its position or limit is fine (the next record
 *       repositions it); keeping it past the call is not;</li>
 *   <li>its byte order is {@link java.nio.ByteOrder#BIG_ENDIAN} (java.nio's default). A record
 *       written through {@link CommitLog#claim} with Chronicle's {@code writeLong} etc. is in native
 *       order (little-endian on x86 and ARM): read it after {@code record.order(ByteOrder.nativeOrder())}.
 *       The order set stays for the rest of the replay or poll.</li>
 * </ul>
 */
@FunctionalInterface
public interface RecordHandler {
    /**
     * @param position the record's log position (as {@code append} returned it)
     * @param record   the record's bytes, from {@code position()} to {@code limit()}; read-only,
     *                 reused, valid only during this call
     */
    void onRecord(long position, ByteBuffer record);
}
