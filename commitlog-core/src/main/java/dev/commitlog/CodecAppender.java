package dev.commitlog;

import static dev.commitlog.format.RecordDescriptor.HEADER_LENGTH;
import static dev.commitlog.format.RecordDescriptor.abortedLength;
import static dev.commitlog.format.RecordDescriptor.alignedFrameLength;
import static dev.commitlog.format.RecordDescriptor.frameLength;

import dev.commitlog.codec.BytesRecordCodec;
import dev.commitlog.codec.RecordCodec;
import dev.commitlog.codec.RecordEncodingException;
import dev.commitlog.format.FrameChecksum;
import dev.commitlog.segment.AppendSlot;
import dev.commitlog.segment.Segment;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Objects;
import net.openhft.chronicle.bytes.VanillaBytes;

/**
 * Appends a typed record through its {@link RecordCodec}: claims the codec's bound, encodes in
 * place into the mapped segment, then publishes a frame carrying the true length.
 *
 * <p>Invariants enforced here:
 * <ul>
 *   <li>Every claim is published exactly once (a Segment invariant): as the record, or, if the
 *       codec throws or breaks its contract, as one aborted frame over the whole claim.</li>
 *   <li>A claim shrinks without a format change: when the codec wrote fewer bytes than it bound,
 *       the unused, 8-byte aligned end of the claim is published as an aborted frame (which readers
 *       skip) before the record's own length word, so a reader that reaches past the record always
 *       finds a published frame.</li>
 *   <li>The record's padding reads zero (readers check it), whatever the codec left past its end.</li>
 * </ul>
 */
final class CodecAppender {
    private CodecAppender() {
    }

    /** Encodes, checksums and publishes one record; with a {@code completion}, registers it first (see CommitLog). */
    static <T> AppendContext write(CommitLog log, T record, RecordCodec<T> codec, Object completion) {
        Objects.requireNonNull(codec, "codec");
        int bound = codec.maxEncodedLength(record);
        if (bound == RecordCodec.UNKNOWN_LENGTH) {
            return writeStaged(log, record, codec, completion);
        }
        if (bound < 0) {
            throw new IllegalArgumentException(codec + ".maxEncodedLength returned " + bound
                    + ", not a length nor RecordCodec.UNKNOWN_LENGTH; nothing was written");
        }
        AppendContext context = log.beginAppend(bound, completion);
        AppendSlot slot = context.slot;
        Segment segment = slot.segment();
        int payloadStart = (int) slot.offset() + HEADER_LENGTH;
        int written;
        try {
            written = encodeInPlace(record, codec, context.targets, segment, payloadStart, bound);
        } catch (RuntimeException | Error e) {
            abort(slot, context.checksum);
            throw new RecordEncodingException(failure(codec, bound, slot, e), e);
        }
        publish(context, segment, payloadStart, written, completion);
        return context;
    }

    private static <T> int encodeInPlace(T record, RecordCodec<T> codec, EncodeTargets targets, Segment segment, int payloadStart,
                                         int bound) {
        long written;
        if (codec instanceof BytesRecordCodec<T> bytesCodec) {
            VanillaBytes<Void> out = targets.bytes(segment, payloadStart, bound);
            bytesCodec.encode(record, out);
            written = out.writePosition() - payloadStart;
        } else {
            ByteBuffer out = targets.buffer(segment, payloadStart, bound);
            codec.encode(record, out);
            if (out.limit() != payloadStart + bound) {
                throw new IllegalStateException("the codec moved the target's limit");
            }
            written = out.position() - payloadStart;
        }
        if (written < 0 || written > bound) {
            throw new IllegalStateException("the codec left the target's position " + written + " bytes from the record's start");
        }
        return (int) written;
    }

    private static void publish(AppendContext context, Segment segment, int payloadStart, int written, Object completion) {
        AppendSlot slot = context.slot;
        FrameChecksum checksum = context.checksum;
        int used = alignedFrameLength(written);
        ByteBuffer memory = context.targets.segmentView(segment).clear(); // absolute puts below reach past the codec's limit
        int frameEnd = (int) slot.offset() + used;
        for (int padding = payloadStart + written; padding < frameEnd; padding++) {
            memory.put(padding, (byte) 0);
        }
        int unused = slot.alignedLength() - used;
        if (unused > 0) {
            int lengthWord = abortedLength(unused);
            segment.publish(frameEnd, lengthWord, checksum.headerOnly(slot.position() + used, lengthWord)); // before the record: see class doc
        }
        int frameLength = frameLength(written);
        memory.limit(payloadStart + written).position(payloadStart);
        int crc = checksum.begin(slot.position(), frameLength).update(memory).value();
        if (completion != null) {
            context.registerCompletion(completion);
        }
        segment.publish(slot.offset(), frameLength, crc);
    }

    /** For a codec that cannot bound its size: encode into this thread's staging buffer, then copy it in. */
    private static <T> AppendContext writeStaged(CommitLog log, T record, RecordCodec<T> codec, Object completion) {
        int max = log.config().maxRecordSize();
        EncodeTargets targets = log.appendContext().targets;
        int capacity = Math.min(Math.max(targets.stagingCapacity(), EncodeTargets.INITIAL_STAGING), max);
        ByteBuffer staging;
        while (true) {
            staging = targets.staging(capacity);
            try {
                codec.encode(record, staging);
                break;
            } catch (BufferOverflowException e) {
                if (capacity >= max) {
                    throw new RecordTooLargeException("record encoded by " + codec + " needs more than max_record_size of " + max
                            + " bytes; nothing was written");
                }
                capacity = (int) Math.min(2L * capacity, max);
            } catch (RuntimeException | Error e) {
                throw new RecordEncodingException(codec + " failed to encode the record: " + e + "; nothing was written", e);
            }
        }
        staging.flip();
        return log.writeRecord(staging, completion);
    }

    private static void abort(AppendSlot slot, FrameChecksum checksum) {
        int lengthWord = abortedLength(slot.alignedLength());
        slot.segment().publish(slot.offset(), lengthWord, checksum.headerOnly(slot.position(), lengthWord));
    }

    private static String failure(RecordCodec<?> codec, int bound, AppendSlot slot, Throwable cause) {
        String what = cause instanceof BufferOverflowException ? "wrote more than its bound of " + bound + " bytes"
                : "failed to encode the record: " + cause;
        return codec + " " + what + "; the claim at log position " + slot.position() + " was aborted, nothing was logged";
    }
}
