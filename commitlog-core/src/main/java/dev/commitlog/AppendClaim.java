package dev.commitlog;

import dev.commitlog.segment.FrameWriter;
import net.openhft.chronicle.bytes.Bytes;

/**
 * A zero-copy append in progress: {@link CommitLog#claim} reserves space for a record and points
 * {@link #bytes()} at it, in the segment's memory; the caller encodes the record there directly,
 * then calls {@link #commit()} (or {@link #abort()}). Like Aeron's {@code BufferClaim}.
 *
 * <pre>{@code
 * AppendClaim claim = new AppendClaim();          // once per thread, reused
 * Bytes<?> out = log.claim(16, claim);
 * out.writeLong(key).writeLong(value);
 * long position = claim.commit();                 // durable as the sync mode promises
 * }</pre>
 *
 * <p>Assumptions and guarantees: one thread uses a claim at a time. Every claim must end in
 * {@code commit} or {@code abort}, promptly: the log makes records durable in position order, so
 * an open claim holds back the durability of every record after it. The {@code Bytes} is valid
 * only until then.
 */
public final class AppendClaim {
    /** What commits a claim's record as durable as the sync mode promises, in the committing thread. */
    interface Acknowledger {
        long acknowledge(long position, long endPosition);
    }

    final FrameWriter frame = new FrameWriter();
    /** Set while a claim is open. */
    private Acknowledger acknowledger;
    private int length;

    /** The claimed space; write exactly the claimed length. */
    public Bytes<?> bytes() {
        checkActive();
        return frame.bytes();
    }

    /** The log position of the claimed record. */
    public long position() {
        checkActive();
        return frame.position();
    }

    /**
     * Publishes the record and returns its position once it is as durable as the sync mode
     * promises. If fewer or more than the claimed bytes were written, the claim is aborted and an
     * {@link IllegalStateException} says so.
     */
    public long commit() {
        checkActive();
        long written = frame.bytesWritten();
        if (written != length) {
            abort();
            throw new IllegalStateException("claimed " + length + " bytes but wrote " + written + "; the claim was aborted");
        }
        frame.commit();
        Acknowledger acks = acknowledger;
        acknowledger = null;
        return acks.acknowledge(frame.position(), frame.endPosition());
    }

    /** Gives the space up: it becomes an aborted frame that replay skips. */
    public void abort() {
        checkActive();
        frame.abort();
        acknowledger = null;
    }

    /** The claim is open: returns the claimed space. */
    Bytes<?> begin(Acknowledger acks, int payloadLength) {
        acknowledger = acks;
        length = payloadLength;
        return frame.bytes();
    }

    boolean active() {
        return acknowledger != null;
    }

    private void checkActive() {
        if (acknowledger == null) {
            throw new IllegalStateException("no claim in progress: call CommitLog.claim first");
        }
    }
}
