package dev.commitlog.section;

import static dev.commitlog.format.SegmentDescriptor.SEGMENT_HEADER_LENGTH;

import dev.commitlog.config.Encryption;
import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.disk.WriterMemory;
import dev.commitlog.format.SegmentDescriptor;
import dev.commitlog.io.SegmentFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import net.openhft.chronicle.core.io.IOTools;

/**
 * A sectioned segment file open for writing. Appenders write plain frames into {@link #buffer()},
 * writer memory of the segment's size, exactly as into a plain segment's; a flush of
 * {@code [from, to)} stores that range as one section after the last one in the file (compressed,
 * then encrypted: {@link SectionEncoder}), writes it and the zero word after it, with the header
 * when asked, and syncs: {@code pwrite} and {@code fdatasync} of the stored file, as a plain flush.
 *
 * <p>The header is stored plain, as version 3 ({@link SegmentDescriptor#FORMAT_VERSION_SECTIONS}):
 * each time it is written the version and the header CRC are set here, whatever header the caller
 * wrote into the memory. A header with a new salt (recovery renewing the file) starts the sections
 * again after it: the earlier ones no longer verify under the new salt.
 *
 * <p>Assumptions and guarantees: flushes come from one thread at a time (the flush role, or
 * recovery), each starting where the sections end or below (a range already stored is only
 * synced again: recovery's rewrites); a range of zeros past the sections is not stored (the unused
 * end of a segment). A flush that throws advanced nothing, so a retry after a full disk stores the
 * same range again, under a new nonce. A section that does not fit in the room left throws: the
 * segment's claim budget ({@code SectionBudget}) keeps that from happening.
 */
final class SectionedWriteFile implements SegmentFile {
    private final SegmentFile stored;
    private final ByteBuffer plain;
    /** Reused views for a flush, so that it allocates nothing of its own. */
    private final ByteBuffer plainView;
    private final ByteBuffer storedView;
    private final ByteBuffer headerView;
    private final CRC32C crc = new CRC32C();
    private final SectionEncoder encoder;
    private final SectionChain chain;
    private final long basePosition;
    private final long segmentId;
    /** The keys sections are read with, and the cut section is encrypted again with; null for a log never encrypted. */
    private final KeyProvider keys;
    private ByteBuffer scratch = ByteBuffer.allocateDirect(0);
    /** Where the plain memory came from and goes back to on close; null: allocated for this file, freed on close. */
    private final WriterMemory images;
    /** The end of the plain bytes ever written into the memory: the header, what was decoded, every range a flush was given. */
    private int writtenTo = SEGMENT_HEADER_LENGTH;
    private int salt;
    private boolean closed;

    /**
     * @param stored  the file as stored, open for writing (a new or reused file: its header, zeros after)
     * @param encoder the transform for this file's sections; closed with the file
     * @param keys    the keys to read an existing file's sections with, or null
     * @param decode  whether the file may hold sections already (an existing file opened for writing)
     * @param images  the pool the plain memory is taken from and given back to, or null
     * @throws MissingKeyException if an existing section names a key the provider does not have
     */
    SectionedWriteFile(SegmentFile stored, SectionEncoder encoder, KeyProvider keys, boolean decode, WriterMemory images)
            throws MissingKeyException {
        this.stored = stored;
        this.encoder = encoder;
        ByteBuffer pooled = images == null ? null : images.take(stored.size()); // zeroed; null when the JVM's direct memory limit refuses
        this.images = pooled == null ? null : images;
        this.plain = pooled != null ? pooled : ByteBuffer.allocateDirect(stored.size()); // zeroed by the JDK
        plain.put(0, stored.buffer(), 0, SEGMENT_HEADER_LENGTH);
        this.plainView = plain.duplicate();
        this.storedView = stored.buffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.headerView = plain.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.basePosition = headerView.getLong(SegmentDescriptor.BASE_POSITION_OFFSET);
        this.segmentId = headerView.getLong(SegmentDescriptor.SEGMENT_ID_OFFSET);
        this.keys = keys;
        this.salt = headerView.getInt(SegmentDescriptor.SALT_OFFSET);
        this.chain = new SectionChain(stored, plain, keys);
        encoder.startSegment(segmentId, salt);
        if (decode) {
            try {
                chain.decodeTo(stored.size());
                writtenTo = Math.max(writtenTo, chain.logicalEnd());
            } catch (MissingKeyException e) {
                close();
                throw e;
            }
        }
    }

    @Override
    public Path path() {
        return stored.path();
    }

    @Override
    public ByteBuffer buffer() {
        return plain;
    }

    @Override
    public boolean sectioned() {
        return true;
    }

    @Override
    public long sectionRoom() {
        return stored.size() - chain.fileEnd() - Long.BYTES; // less the zero word after the last section
    }

    @Override
    public int sectionsEnd() {
        return chain.logicalEnd();
    }

    /** Recovery's question of a file it opened for writing: did a section it decoded at open stop the plain bytes at {@code offset}. */
    @Override
    public String sectionDamageAt(int offset) {
        return chain.damageAt(offset);
    }

    @Override
    public void flush(int from, int to) throws IOException {
        flushHeaderAndRange(0, from, to);
    }

    @Override
    public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
        if (closed) {
            throw new IOException(path() + " is closed");
        }
        writtenTo = Math.max(writtenTo, to); // counted before the attempt: a failed flush's bytes are in the memory too
        boolean withHeader = headerLength > 0 || from < SEGMENT_HEADER_LENGTH;
        boolean restarted = withHeader && storeHeader();
        int fileFrom = chain.fileEnd();
        int start = Math.max(from, chain.logicalEnd());
        int fileTo = fileFrom;
        if (to > start && !zeros(start, to)) {
            if (start != chain.logicalEnd()) {
                throw new IOException(path() + ": a flush from offset " + start + " would leave a gap after the sections, which end at "
                        + chain.logicalEnd());
            }
            fileTo = store(encoder, start, to, fileFrom);
        }
        int writeTo = fileTo > fileFrom || restarted ? Math.min(fileTo + Long.BYTES, stored.size()) : fileFrom;
        if (writeTo > fileTo) {
            storedView.putLong(fileTo, 0); // the zero word: a reader stops here, not on what an earlier life left
        }
        stored.flushHeaderAndRange(withHeader ? SEGMENT_HEADER_LENGTH : 0, fileFrom, writeTo);
        if (fileTo > fileFrom) {
            chain.appended(fileTo, to);
        }
    }

    /**
     * The tools' cut ({@code truncate-after}): the plain bytes from {@code offset} on leave the
     * file. The section holding {@code offset} is stored again holding only the bytes before it,
     * with the codec and cipher it was stored with (encrypted under the key provider's current
     * key, with a new nonce), everything after it in the file is zeroed, and the file, header
     * included, is written and synced. Nothing happens when no section holds {@code offset}.
     *
     * @throws IOException if the write or sync failed (the caller keeps a copy of the file)
     */
    @Override
    public void cutSections(int offset) throws IOException {
        if (closed) {
            throw new IOException(path() + " is closed");
        }
        if (offset < SEGMENT_HEADER_LENGTH || offset > plain.capacity()) {
            throw new IllegalArgumentException("offset " + offset + " is outside the plain bytes of " + path() + " (64 to "
                    + plain.capacity() + ")");
        }
        int at = chain.forgetFrom(offset);
        if (at < 0) {
            return;
        }
        int codec = storedView.get(at + SectionDescriptor.CODEC_OFFSET);
        int cipher = storedView.get(at + SectionDescriptor.CIPHER_OFFSET);
        int start = chain.logicalEnd();
        zero(plain, offset, plain.capacity());
        zero(storedView, at, stored.size());
        storeHeader();
        int fileTo = at;
        if (offset > start) {
            boolean encrypted = cipher != SectionDescriptor.CIPHER_NONE;
            try (SectionEncoder again = new SectionEncoder(BlockCompressors.compressionOf(codec), BlockCompressors.ZSTD_DEFAULT_LEVEL,
                    encrypted ? Encryption.AES_GCM : Encryption.NONE, encrypted ? keys : null, stored.size())) {
                again.startSegment(segmentId, salt);
                fileTo = store(again, start, offset, at);
            }
        }
        stored.flushHeaderAndRange(SEGMENT_HEADER_LENGTH, at, stored.size()); // the section, then zeros to the end
        chain.appended(fileTo, Math.max(start, offset));
    }

    /**
     * Copies the header from the memory into the stored file as version 3 (the memory's copy is
     * set to match); returns whether its salt changed, which starts the sections again.
     */
    private boolean storeHeader() {
        if (headerView.getInt(SegmentDescriptor.HEADER_CRC_OFFSET) == headerCrc(headerView, crc)) {
            headerView.putInt(SegmentDescriptor.VERSION_OFFSET, SegmentDescriptor.FORMAT_VERSION_SECTIONS);
            headerView.putInt(SegmentDescriptor.HEADER_CRC_OFFSET, headerCrc(headerView, crc));
        } // else a damaged header (recovery syncing a segment the walk reported): written as it is, never made to verify
        storedView.put(0, plain, 0, SEGMENT_HEADER_LENGTH);
        int newSalt = headerView.getInt(SegmentDescriptor.SALT_OFFSET);
        if (newSalt == salt) {
            return false;
        }
        salt = newSalt;
        long id = headerView.getLong(SegmentDescriptor.SEGMENT_ID_OFFSET);
        chain.restart(id, newSalt);
        encoder.startSegment(id, newSalt);
        return true;
    }

    /** Stores plain {@code [start, to)} as one section at {@code fileFrom}; returns the file offset after it. */
    private int store(SectionEncoder encoder, int start, int to, int fileFrom) throws IOException {
        plainView.limit(to).position(start);
        int room = stored.size() - fileFrom;
        int bound = encoder.maxSectionLength(to - start);
        long logicalStart = basePosition + start;
        if (bound <= room) {
            storedView.limit(stored.size()).position(fileFrom);
            int end = fileFrom + encoder.encode(plainView, logicalStart, fileFrom, storedView);
            // A compressor may use its output as room to work in (zstd writes a block and then stores
            // it raw); the memory past the section must stay zero, as writer memory is released.
            zero(storedView, end, fileFrom + bound);
            return end;
        }
        if (scratch.capacity() < bound) {
            scratch = ByteBuffer.allocateDirect(bound);
        }
        int length = encoder.encode(plainView, logicalStart, fileFrom, scratch.clear());
        if (length > room) {
            throw new IOException(path() + ": the section of plain bytes [" + start + ", " + to + ") takes " + length + " bytes, and "
                    + room + " are left in the file");
        }
        storedView.put(fileFrom, scratch, 0, length);
        return fileFrom + length;
    }

    private static void zero(ByteBuffer buffer, int from, int to) {
        int i = from;
        for (; i < to && (i & 7) != 0; i++) {
            buffer.put(i, (byte) 0);
        }
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            buffer.putLong(i, 0);
        }
        for (; i < to; i++) {
            buffer.put(i, (byte) 0);
        }
    }

    private boolean zeros(int from, int to) {
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            if (plain.getLong(i) != 0) {
                return false;
            }
        }
        for (; i < to; i++) {
            if (plain.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** The header CRC (bytes 0..39) of the little-endian header at the start of {@code header}. */
    static int headerCrc(ByteBuffer header, CRC32C crc) {
        crc.reset();
        crc.update(header.duplicate().limit(SegmentDescriptor.HEADER_CRC_COVERS).position(0));
        return (int) crc.getValue();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            chain.close();
            encoder.close();
            stored.close();
            if (images != null) {
                images.release(plain, writtenTo); // zeroed up to there when the next segment takes it
            } else {
                IOTools.clean(plain);
            }
        }
    }

    @Override
    public String toString() {
        return stored.toString();
    }
}
