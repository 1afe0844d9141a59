package dev.commitlog.segment;

import static dev.commitlog.format.RecordDescriptor.FRAME_HEADER_LENGTH;
import static dev.commitlog.format.RecordDescriptor.abortedLength;
import static dev.commitlog.format.RecordDescriptor.alignedFrameLength;
import static dev.commitlog.format.RecordDescriptor.frameLength;

import dev.commitlog.RecordTooLargeException;
import dev.commitlog.codec.BytesRecordCodec;
import dev.commitlog.codec.RecordCodec;
import dev.commitlog.codec.RecordEncodingException;
import dev.commitlog.format.FrameChecksum;
import java.io.IOException;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.VanillaBytes;

/**
 * The one place records are framed, like Agrona's ring buffers, which own claim, write, commit
 * and abort: {@link #claim} takes space for a frame from the {@link SegmentWriter}; the payload is
 * filled by a copy ({@link #write(byte[], int, int)}, {@link #write(ByteBuffer)}), by a codec
 * encoding in place ({@link #encode}) or by the caller through {@link #bytes()}; then
 * {@link #commit()} publishes the frame or {@link #abort()} gives the space up.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>One thread uses a writer at a time (one per appending thread, one per {@code AppendClaim});
 *       it allocates nothing per frame: the slot, the checksum and the views are reused.</li>
 *   <li>Every claim is published exactly once, as the record or as one aborted frame over the
 *       whole claim: a claim left unpublished would stall the sync thread, so a second claim
 *       before the first ends is refused, and a codec that fails aborts its claim.</li>
 *   <li>The length word is published last, with an ordered store ({@link Segment#publish}), after
 *       the payload and the checksum (which covers the position, the length word and the
 *       payload: {@link FrameChecksum}).</li>
 *   <li>A frame may shrink without a format change: when fewer bytes were written than claimed,
 *       the unused, 8-byte aligned end of the claim is published as an aborted frame (which readers
 *       skip) before the record's own length word, so a reader that reaches past the record always
 *       finds a published frame; and the record's padding is zeroed (readers check it), whatever
 *       an encoder left past its end.</li>
 * </ul>
 */
public final class FrameWriter {
    /** A staging buffer starts this big; doubled (up to max_record_size) when a record does not fit. */
    static final int INITIAL_STAGING = 4096;

    private final AppendSlot slot = new AppendSlot();
    private final FrameChecksum checksum = new FrameChecksum();
    private final VanillaBytes<Void> bytes = VanillaBytes.vanillaBytes();
    /** A duplicate of the claimed segment's buffer, made once per segment. */
    private Segment viewSegment;
    private ByteBuffer view;
    private ByteBuffer staging;
    private boolean open;
    /** Payload bytes the claim holds, and how many the frame will carry. */
    private int claimedPayload;
    private int payloadLength;
    /** The checksum of a copied payload, computed from the source as it was copied; -1 when not yet known. */
    private long copiedCrc;

    /**
     * Claims space for a frame of {@code payloadLength} bytes.
     *
     * @throws IllegalStateException if this writer's previous claim was neither committed nor aborted
     * @throws IOException           if a new segment was needed and could not be made; nothing was claimed
     */
    public void claim(SegmentWriter segments, int payloadLength) throws IOException {
        if (open) {
            throw new IllegalStateException("a frame is claimed and not yet committed or aborted");
        }
        segments.claim(alignedFrameLength(payloadLength), slot, checksum);
        slot.segment().checksumFramesWith(checksum); // the claim may have sealed another segment with it
        open = true;
        claimedPayload = payloadLength;
        this.payloadLength = payloadLength;
        copiedCrc = -1;
    }

    /** Copies the whole claimed payload from {@code source}, checksumming as it goes. */
    public void write(byte[] source, int offset, int length) {
        requireWholeClaim(length);
        slot.segment().write(slot.offset(), source, offset, length);
        copiedCrc = Integer.toUnsignedLong(checksum.begin(slot.position(), frameLength(length)).update(source, offset, length).value());
    }

    /** Copies {@code source}'s remaining bytes, the whole claimed payload; its position is left unchanged. */
    public void write(ByteBuffer source) {
        requireWholeClaim(source.remaining());
        slot.segment().write(slot.offset(), source);
        int start = source.position();
        copiedCrc = Integer.toUnsignedLong(checksum.begin(slot.position(), frameLength(source.remaining())).update(source).value());
        source.position(start);
    }

    /**
     * Encodes {@code record} straight into the claimed payload, which holds the codec's bound; the
     * frame then carries what the codec wrote.
     *
     * @throws RecordEncodingException if the codec threw, wrote past its bound or broke the target's
     *                                 contract; the claim is aborted, nothing is logged
     */
    public <T> void encode(T record, RecordCodec<T> codec) {
        int payloadStart = payloadStart();
        long written;
        try {
            if (codec instanceof BytesRecordCodec<T> bytesCodec) {
                VanillaBytes<Void> out = bytes();
                bytesCodec.encode(record, out);
                written = out.writePosition() - payloadStart;
            } else {
                ByteBuffer out = segmentView();
                out.order(ByteOrder.BIG_ENDIAN).limit(payloadStart + claimedPayload).position(payloadStart);
                codec.encode(record, out);
                if (out.limit() != payloadStart + claimedPayload) {
                    throw new IllegalStateException("the codec moved the target's limit");
                }
                written = out.position() - payloadStart;
            }
            if (written < 0 || written > claimedPayload) {
                throw new IllegalStateException("the codec left the target's position " + written + " bytes from the record's start");
            }
        } catch (RuntimeException | Error e) {
            long position = slot.position();
            abort();
            String what = e instanceof BufferOverflowException ? "wrote more than its bound of " + claimedPayload + " bytes"
                    : "failed to encode the record: " + e;
            throw new RecordEncodingException(codec + " " + what + "; the claim at log position " + position
                    + " was aborted, nothing was logged", e);
        }
        payloadLength = (int) written;
    }

    /**
     * The claimed payload as Chronicle {@code Bytes}, write position at its start and write limit at
     * its end, for a caller (or codec) that encodes in place.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public VanillaBytes<Void> bytes() {
        requireOpen();
        long payloadStart = payloadStart();
        BytesStore store = slot.segment().memory();
        bytes.bytesStore(store, payloadStart, claimedPayload);
        bytes.writeLimit(payloadStart + claimedPayload);
        bytes.writePosition(payloadStart);
        bytes.readPosition(payloadStart);
        return bytes;
    }

    /** Bytes written through {@link #bytes()} since it was handed out. */
    public long bytesWritten() {
        return bytes.writePosition() - payloadStart();
    }

    /** Publishes the frame with the payload written; the claim ends. */
    public void commit() {
        requireOpen();
        int crc;
        int used = alignedFrameLength(payloadLength);
        if (copiedCrc >= 0) {
            crc = (int) copiedCrc;
        } else {
            ByteBuffer memory = segmentView().clear(); // absolute puts below reach past any codec's limit
            int payloadStart = payloadStart();
            for (int padding = payloadStart + payloadLength; padding < (int) slot.offset() + used; padding++) {
                memory.put(padding, (byte) 0);
            }
            memory.limit(payloadStart + payloadLength).position(payloadStart);
            crc = checksum.begin(slot.position(), frameLength(payloadLength)).update(memory).value();
        }
        Segment segment = slot.segment();
        int unused = slot.alignedLength() - used;
        if (unused > 0) {
            int lengthWord = abortedLength(unused);
            segment.publish(slot.offset() + used, lengthWord, checksum.headerOnly(slot.position() + used, lengthWord)); // before the record: see class doc
        }
        open = false;
        segment.publish(slot.offset(), frameLength(payloadLength), crc);
    }

    /** Gives the claimed space up: it becomes an aborted frame that readers skip; the claim ends. */
    public void abort() {
        requireOpen();
        int lengthWord = abortedLength(slot.alignedLength());
        open = false;
        slot.segment().publish(slot.offset(), lengthWord, checksum.headerOnly(slot.position(), lengthWord));
    }

    /**
     * For a codec that cannot bound its size: encodes {@code record} into this writer's staging
     * buffer (grown on overflow, up to {@code maxRecordSize}, never shrunk) and returns it, flipped,
     * for {@link #write(ByteBuffer)}. Claims nothing.
     *
     * @throws RecordTooLargeException if the encoding needs more than {@code maxRecordSize}
     * @throws RecordEncodingException if the codec failed
     */
    public <T> ByteBuffer stage(T record, RecordCodec<T> codec, int maxRecordSize) {
        int capacity = Math.min(Math.max(staging == null ? 0 : staging.capacity(), INITIAL_STAGING), maxRecordSize);
        for (;;) {
            if (staging == null || staging.capacity() < capacity) {
                staging = ByteBuffer.allocate(capacity);
            }
            staging.clear().limit(capacity);
            staging.order(ByteOrder.BIG_ENDIAN);
            try {
                codec.encode(record, staging);
                return staging.flip();
            } catch (BufferOverflowException e) {
                if (capacity >= maxRecordSize) {
                    throw new RecordTooLargeException("record encoded by " + codec + " needs more than max_record_size of "
                            + maxRecordSize + " bytes; nothing was written");
                }
                capacity = (int) Math.min(2L * capacity, maxRecordSize);
            } catch (RuntimeException | Error e) {
                throw new RecordEncodingException(codec + " failed to encode the record: " + e + "; nothing was written", e);
            }
        }
    }

    /** Whether a claim is open. */
    public boolean isOpen() {
        return open;
    }

    /** The log position of the claimed frame. */
    public long position() {
        return slot.position();
    }

    /** The log position just past the claimed frame: durable once the durable position reaches it. */
    public long endPosition() {
        return slot.endPosition();
    }

    private int payloadStart() {
        return (int) slot.offset() + FRAME_HEADER_LENGTH;
    }

    private ByteBuffer segmentView() {
        Segment segment = slot.segment();
        if (segment != viewSegment) {
            view = segment.buffer().duplicate(); // once per segment
            viewSegment = segment;
        }
        return view;
    }

    private void requireOpen() {
        if (!open) {
            throw new IllegalStateException("no frame is claimed");
        }
    }

    private void requireWholeClaim(int length) {
        requireOpen();
        if (length != claimedPayload) {
            throw new IllegalArgumentException("a copy of " + length + " bytes into a claim of " + claimedPayload);
        }
    }
}
