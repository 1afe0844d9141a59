package dev.commitlog;

import static dev.commitlog.format.RecordDescriptor.HEADER_LENGTH;

import dev.commitlog.format.FrameChecksum;
import dev.commitlog.segment.AppendSlot;
import dev.commitlog.segment.Segment;
import java.nio.ByteBuffer;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.VanillaBytes;

/**
 * A zero-copy append in progress: {@link CommitLog#claim} reserves space for a record and points
 * {@link #bytes()} at it, in the mapped segment; the caller encodes the record there directly,
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
    final AppendSlot slot = new AppendSlot();
    final FrameChecksum checksum = new FrameChecksum();
    private final VanillaBytes<Void> bytes = VanillaBytes.vanillaBytes();
    private CommitLog log;
    private int length;
    /** A duplicate of the claimed segment's buffer, for checksumming the payload in place. */
    private ByteBuffer view;
    private Segment viewSegment;

    /** The claimed space; write exactly the claimed length. */
    public Bytes<?> bytes() {
        checkActive();
        return bytes;
    }

    /** The log position of the claimed record. */
    public long position() {
        checkActive();
        return slot.position();
    }

    /**
     * Publishes the record and returns its position once it is as durable as the sync mode
     * promises. If fewer or more than the claimed bytes were written, the claim is aborted and an
     * {@link IllegalStateException} says so.
     */
    public long commit() {
        checkActive();
        long payloadStart = slot.offset() + HEADER_LENGTH;
        long written = bytes.writePosition() - payloadStart;
        if (written != length) {
            abort();
            throw new IllegalStateException("claimed " + length + " bytes but wrote " + written + "; the claim was aborted");
        }
        Segment segment = slot.segment();
        if (viewSegment != segment) {
            view = segment.buffer().duplicate();
            viewSegment = segment;
        }
        view.limit((int) payloadStart + length).position((int) payloadStart);
        int frameLength = HEADER_LENGTH + length;
        int crc = checksum.begin(slot.position(), frameLength).update(view).value();
        segment.publish(slot.offset(), frameLength, crc);
        CommitLog owner = log;
        log = null;
        return owner.afterPublish(slot);
    }

    /** Gives the space up: it becomes an aborted frame that replay skips. */
    public void abort() {
        checkActive();
        int lengthWord = -slot.alignedLength();
        slot.segment().publish(slot.offset(), lengthWord, checksum.headerOnly(slot.position(), lengthWord));
        log = null;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    Bytes<?> begin(CommitLog owner, int payloadLength) {
        log = owner;
        length = payloadLength;
        long payloadStart = slot.offset() + HEADER_LENGTH;
        BytesStore store = slot.segment().memory();
        bytes.bytesStore(store, payloadStart, payloadLength);
        bytes.writeLimit(payloadStart + payloadLength);
        bytes.writePosition(payloadStart);
        bytes.readPosition(payloadStart);
        return bytes;
    }

    boolean active() {
        return log != null;
    }

    private void checkActive() {
        if (log == null) {
            throw new IllegalStateException("no claim in progress: call CommitLog.claim first");
        }
    }
}
