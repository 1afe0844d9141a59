package dev.commitlog.section;

import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The sections of one segment file, read in order from offset 64 into a plain image of the
 * segment: each section's plain bytes at their own offsets, so that the frames read as in a plain
 * segment. Decoding stops at the first section that does not verify (a zero word, a torn, damaged,
 * stale or misplaced section): the image stays zero from there on, which the reading rules take
 * for the end of the log at or after the durable mark and for corruption below it, the handling
 * every damaged frame gets.
 *
 * <p>Assumptions and guarantees: {@link #decodeTo} runs under the caller's lock (one thread at a
 * time); what it wrote below {@link #logicalEnd()} never changes afterwards, so readers that read
 * the end with a volatile load read the image below it without a lock. A section encrypted under a
 * key id that the provider does not have is not damage: it throws {@link MissingKeyException}
 * naming the id, and the caller refuses to go on, never cutting the log there.
 */
final class SectionChain {
    private final SegmentFile file;
    private final ByteBuffer image;
    private final SectionDecoder decoder;
    private final long basePosition;
    /** The next section's offset in the file. */
    private int fileEnd = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
    /** The end of the plain bytes decoded so far, an offset in the segment. Volatile: published after the bytes. */
    private volatile int logicalEnd = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
    /** The first section that did not verify, or null. */
    private DamagedSectionException damage;

    /**
     * @param file  the stored file (its buffer: sections after the header)
     * @param image the plain image, as long as the file, zero past the header
     * @param keys  the keys, or null for a log never encrypted
     */
    SectionChain(SegmentFile file, ByteBuffer image, KeyProvider keys) {
        this.file = file;
        this.image = image;
        ByteBuffer header = file.buffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.basePosition = header.getLong(SegmentDescriptor.BASE_POSITION_OFFSET);
        this.decoder = new SectionDecoder(keys).forSegment(header.getLong(SegmentDescriptor.SEGMENT_ID_OFFSET),
                header.getInt(SegmentDescriptor.SALT_OFFSET));
    }

    /** The end of the plain bytes decoded so far (an offset in the segment). Any thread. */
    int logicalEnd() {
        return logicalEnd;
    }

    /** The next section's offset in the file. Caller's lock. */
    int fileEnd() {
        return fileEnd;
    }

    /**
     * Decodes sections until the image holds the plain bytes up to at least {@code end}, or no
     * further section verifies. Caller's lock. A damaged section is tried again on the next call
     * (a live segment's next section may not have been written when this one looked).
     *
     * @throws MissingKeyException if a section names a key the provider does not have
     */
    void decodeTo(int end) throws MissingKeyException {
        ByteBuffer source = file.buffer();
        while (logicalEnd < end && fileEnd < source.capacity()) {
            ByteBuffer out = image.duplicate().limit(image.capacity()).position(logicalEnd);
            try {
                int length = decoder.decode(source, fileEnd, fileEnd, basePosition + logicalEnd, out);
                fileEnd += length;
                logicalEnd = out.position(); // volatile store: publishes the decoded bytes
                damage = null;
            } catch (DamagedSectionException e) {
                if (e.damage() == SectionDamage.UNKNOWN_KEY) {
                    throw new MissingKeyException(file.path(), fileEnd, e);
                }
                damage = e;
                return;
            }
        }
    }

    /**
     * Why the plain bytes end at {@code offset}: the first section that did not verify, when the
     * decoded bytes end there and it is not the zero word (nothing written); otherwise null. Caller's lock.
     */
    String damageAt(int offset) {
        if (logicalEnd != offset || damage == null || damage.damage() == SectionDamage.UNWRITTEN) {
            return null;
        }
        return damage.getMessage();
    }

    /** Moves the chain on past a section the writer just wrote (it holds plain bytes up to {@code newLogicalEnd}). Caller's lock. */
    void appended(int newFileEnd, int newLogicalEnd) {
        fileEnd = newFileEnd;
        logicalEnd = newLogicalEnd;
    }

    /**
     * The tools' cut: forgets the decoded sections from the one holding plain offset {@code offset}
     * on, so the next section stored starts where that one did. Returns that section's file
     * offset (its header still in the file's memory), or -1 when no decoded section holds
     * {@code offset} (it is at or past the decoded end: nothing to forget). The decoded sections
     * run one after another from offset 64, so their headers, verified when decoded, find it.
     * Caller's lock.
     */
    int forgetFrom(int offset) {
        if (offset >= logicalEnd) {
            return -1;
        }
        ByteBuffer source = file.buffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int at = SegmentDescriptor.SEGMENT_HEADER_LENGTH; at < fileEnd; ) {
            long start = source.getLong(at + SectionDescriptor.LOGICAL_START_OFFSET) - basePosition;
            if (offset < start + source.getInt(at + SectionDescriptor.LOGICAL_LENGTH_OFFSET)) {
                fileEnd = at;
                logicalEnd = (int) start;
                damage = null;
                return at;
            }
            at += (int) SectionDescriptor.sectionLength(source.getInt(at + SectionDescriptor.STORED_LENGTH_OFFSET));
        }
        throw new IllegalStateException(file.path() + ": no decoded section holds plain offset " + offset + ", below their end "
                + logicalEnd);
    }

    /** Starts the chain again after the header: a new life of the file (a new salt), whose earlier sections no longer verify. */
    void restart(long segmentId, int salt) {
        decoder.forSegment(segmentId, salt);
        fileEnd = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        logicalEnd = SegmentDescriptor.SEGMENT_HEADER_LENGTH;
        damage = null;
    }

    void close() {
        decoder.close();
    }
}
