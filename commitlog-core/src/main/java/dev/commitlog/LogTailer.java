package dev.commitlog;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Follows a live log from a position: each {@link #poll} hands over the records that became
 * durable since the last one, in position order, and a timed poll waits for more. The feed for
 * replication and change-data capture. Get one from {@link CommitLog#tailer(long)}.
 *
 * <pre>{@code
 * try (LogTailer tailer = log.tailer(lastShipped)) {
 *     while (tailer.poll((position, record) -> replica.send(position, record), 1_000, 100, TimeUnit.MILLISECONDS) >= 0) { }
 * }
 * }</pre>
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>One thread uses a tailer at a time. It reads the segment files through read-only
 *       mappings (the log's, shared with {@code readAt}), never the writer's, so it needs no
 *       coordination with appenders or the sync thread: its only input from the log is the durable
 *       position (a volatile read).</li>
 *   <li>Never returns a record at or past the durable position read at the start of the poll: only
 *       what a crash cannot take back. Every frame is verified (checksum) before it is returned; a
 *       bad one below the durable position is damage after the flush and throws
 *       {@link CorruptLogException}.</li>
 *   <li>Follows rollover: after a segment's end marker it opens the next segment (only once the
 *       durable position has passed into it, so a segment still being created is never read).</li>
 *   <li>Discards: a segment already mapped stays readable after {@code discardUpTo} deletes its
 *       file; if the next segment the tailer needs was deleted, {@link PositionDiscardedException}
 *       says where the log now starts, and the tailer stays where it was (it never skips ahead on
 *       its own: a replica that lost records must know).</li>
 *   <li>Records come as a read-only {@code ByteBuffer} ({@link #poll(RecordHandler, int)}, see
 *       {@link RecordHandler} for what the view allows) or a Chronicle {@code Bytes}
 *       ({@link #pollBytes(BytesRecordHandler, int)}).</li>
 *   <li>No allocation per record: one frame scanner and one view, re-pointed at each record; a
 *       {@code ByteBuffer} view per segment, on a mapping made once per segment for the whole log
 *       and kept until its segment is discarded or the log closes.</li>
 *   <li>Waiting: a timed poll spins briefly, then parks for growing intervals (10 us doubling to
 *       1 ms), re-reading the durable position each time. The sync thread does not know tailers
 *       exist, so the flush path pays nothing for them; the cost is up to 1 ms of extra latency
 *       after an idle spell.</li>
 *   <li>After the log closes, a poll returns what was durable and then -1 (end of the log).</li>
 * </ul>
 */
public interface LogTailer extends AutoCloseable {
    /**
     * Hands {@code handler} up to {@code maxRecords} durable records that follow the last one
     * returned, without waiting, each as a read-only {@code ByteBuffer} (see {@link RecordHandler}).
     * If the handler throws, that record is returned again by the next poll.
     *
     * @return the number of records handed over; 0 if none is durable yet; -1 once the log is
     *         closed and every durable record has been returned
     * @throws IllegalStateException if this tailer is closed
     */
    int poll(RecordHandler handler, int maxRecords) throws IOException;

    /** As {@link #poll(RecordHandler, int)}, each record as a Chronicle {@code Bytes}. */
    int pollBytes(BytesRecordHandler handler, int maxRecords) throws IOException;

    /**
     * As {@link #poll(RecordHandler, int)}, but when nothing is durable yet waits up to
     * {@code timeout} for a record.
     *
     * @return as {@link #poll(RecordHandler, int)}; 0 when the timeout passed with nothing new
     */
    int poll(RecordHandler handler, int maxRecords, long timeout, TimeUnit unit) throws IOException, InterruptedException;

    /** As {@link #poll(RecordHandler, int, long, TimeUnit)}, each record as a Chronicle {@code Bytes}. */
    int pollBytes(BytesRecordHandler handler, int maxRecords, long timeout, TimeUnit unit) throws IOException, InterruptedException;

    /**
     * The log position the next record will be at or after: just past the last one returned or
     * read past. A new tailer opened at this position goes on where this one stopped.
     */
    long position();

    /**
     * Releases the segment being read: its mapping goes once the log no longer keeps it (its
     * segment discarded, or the log closed) and no other reader uses it. Idempotent.
     */
    @Override
    void close();
}
