package dev.commitlog.segment;

import static dev.commitlog.format.SegmentDescriptor.*;

import dev.commitlog.format.SegmentDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32C;

/**
 * The decoded header of a segment file, and the code that writes and checks it. Layout in
 * {@link SegmentDescriptor}.
 *
 * @param version the format version: {@link SegmentDescriptor#FORMAT_VERSION_1} or {@link SegmentDescriptor#FORMAT_VERSION}
 * @param salt    the life salt folded into this segment's frame checksums (version 2; 0 in version 1)
 */
public record SegmentHeader(long segmentId, long basePosition, int segmentSize, long durableMark, int version, int salt) {

    /** A header for a segment created new (every byte after it zero on the device): salt 0, no durable mark yet. */
    public static ByteBuffer encode(long segmentId, long basePosition, int segmentSize) {
        return encode(segmentId, basePosition, segmentSize, 0);
    }

    /**
     * A header for a new life of a file: no durable mark yet. A file that held frames before (a
     * recycled one, or one re-salted by recovery) must get a salt under which none of its old
     * frames verifies: {@link #nextSalt} for a file that moves to new positions, {@link
     * #renewalSalt} for one that starts again at the same positions.
     */
    public static ByteBuffer encode(long segmentId, long basePosition, int segmentSize, int salt) {
        ByteBuffer header = ByteBuffer.allocate(SEGMENT_HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        header.putLong(MAGIC_OFFSET, MAGIC)
                .putInt(VERSION_OFFSET, FORMAT_VERSION)
                .putInt(HEADER_LENGTH_OFFSET, SEGMENT_HEADER_LENGTH)
                .putLong(SEGMENT_ID_OFFSET, segmentId)
                .putLong(BASE_POSITION_OFFSET, basePosition)
                .putInt(SEGMENT_SIZE_OFFSET, segmentSize)
                .putInt(SALT_OFFSET, salt);
        header.putInt(HEADER_CRC_OFFSET, crc(header, 0, HEADER_CRC_COVERS));
        return header;
    }

    /**
     * The salt of this file's next life when it is reused as a later segment: one above this one's
     * (a version 1 file's is 0), never 0, which means "created new". Its old frames are also at
     * other log positions, which every frame checksum folds in as well.
     */
    public int nextSalt() {
        int next = salt + 1;
        return next == 0 ? 1 : next;
    }

    /**
     * The salt of a new life of this file at the same log positions (recovery renewing a tail or a
     * prepared segment that may hold stale bytes): drawn at random, never 0 and never this one.
     * "One above" is only as good as the header it reads: a header that decodes with an earlier
     * life's salt (a lost or misdirected header write, a forged one) would lead back to a salt
     * whose frames lie at these very positions, and they would verify again. A random salt
     * matches an earlier life's with odds of 2^-32, the odds of any damaged frame passing its CRC.
     */
    public int renewalSalt() {
        int renewed;
        do {
            renewed = ThreadLocalRandom.current().nextInt();
        } while (renewed == 0 || renewed == salt);
        return renewed;
    }

    /**
     * Whether bytes past this segment's frames may be an earlier life's rather than zeros: a salt
     * other than 0 means the file was reused or re-salted, and only a file created new has salt 0.
     */
    public boolean mayHoldStaleBytes() {
        return mayHoldStaleBytes(salt);
    }

    /** The rule behind {@link #mayHoldStaleBytes()}, for a salt read from a mapped header. */
    static boolean mayHoldStaleBytes(int salt) {
        return salt != 0;
    }

    /**
     * Decodes and checks the header at the start of {@code file} (little-endian order is applied
     * to a duplicate; the argument is not changed).
     *
     * @param expectedId the id in the file's name
     * @param fileLength the length of the file
     * @throws SegmentHeaderException naming what is wrong
     */
    public static SegmentHeader decode(ByteBuffer file, long expectedId, long fileLength) {
        if (fileLength < SEGMENT_HEADER_LENGTH) {
            throw new SegmentHeaderException("too short: the file is " + fileLength + " bytes, shorter than a segment header ("
                    + SEGMENT_HEADER_LENGTH + ")");
        }
        ByteBuffer b = file.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        long magic = b.getLong(MAGIC_OFFSET);
        if (magic != MAGIC) {
            if (fileLength < MIN_SEGMENT_SIZE) {
                // Shorter than any segment a log makes: say so first, the magic is the lesser news.
                throw new SegmentHeaderException(String.format("too short: the file is %d bytes, and a segment file is at least %d "
                        + "(commitlog_segment_size is at least 64KiB); it is not a segment file, or the start of one cut short "
                        + "(bad magic 0x%016x)", fileLength, MIN_SEGMENT_SIZE, magic));
            }
            throw new SegmentHeaderException(String.format("bad magic 0x%016x (expected 0x%016x)", magic, MAGIC));
        }
        int storedCrc = b.getInt(HEADER_CRC_OFFSET);
        int actualCrc = crc(b, 0, HEADER_CRC_COVERS);
        if (storedCrc != actualCrc) {
            throw new SegmentHeaderException(String.format("header checksum mismatch (stored 0x%08x, computed 0x%08x)", storedCrc, actualCrc));
        }
        int version = b.getInt(VERSION_OFFSET);
        if (version != FORMAT_VERSION && version != FORMAT_VERSION_1 && version != SegmentDescriptor.FORMAT_VERSION_SECTIONS) {
            throw new SegmentHeaderException("unsupported format version " + version + " (this build reads versions "
                    + FORMAT_VERSION_1 + ", " + FORMAT_VERSION + " and " + SegmentDescriptor.FORMAT_VERSION_SECTIONS + ")");
        }
        int headerLength = b.getInt(HEADER_LENGTH_OFFSET);
        if (headerLength != SEGMENT_HEADER_LENGTH) {
            throw new SegmentHeaderException("header length " + headerLength + " (expected " + SEGMENT_HEADER_LENGTH + ")");
        }
        long id = b.getLong(SEGMENT_ID_OFFSET);
        if (id != expectedId) {
            throw new SegmentHeaderException("header says segment id " + id + " but the file name says " + expectedId);
        }
        int size = b.getInt(SEGMENT_SIZE_OFFSET);
        if (size != fileLength) {
            throw new SegmentHeaderException((fileLength < size ? "too short (cut short?): " : "") + "header says " + size
                    + " bytes but the file has " + fileLength);
        }
        long base = b.getLong(BASE_POSITION_OFFSET);
        if (base < 0 || base > Long.MAX_VALUE - size) {
            // Positions must stay non-negative to the segment's end, or ordering checks overflow.
            throw new SegmentHeaderException("base position " + base + " out of range");
        }
        int salt = b.getInt(SALT_OFFSET);
        if (version == FORMAT_VERSION_1 && salt != 0) {
            throw new SegmentHeaderException("version 1 header with flags " + salt + " (always 0 in version 1)");
        }
        return new SegmentHeader(id, base, size, readDurableMark(b, id, base, base + size), version, salt);
    }

    /**
     * The durable mark, or 0 when none was written, its checksum fails, or it lies outside the
     * segment's own positions (a mark is only a hint). The sync thread writes into a segment only
     * marks from {@code [base, end]}: it enters a segment once the previous one is durable, and the
     * mark never passes what is durable. A mark outside that range is forged or misplaced, and
     * trusting it would call an unwritten tail corruption.
     */
    static long readDurableMark(ByteBuffer littleEndian, long segmentId, long base, long end) {
        long mark = littleEndian.getLong(DURABLE_MARK_OFFSET);
        int storedCrc = littleEndian.getInt(DURABLE_MARK_CRC_OFFSET);
        boolean valid = mark > 0 && mark >= base && mark <= end && storedCrc == durableMarkCrc(segmentId, mark);
        return valid ? mark : 0;
    }

    /**
     * Rewrites the durable mark (and its CRC) of the header at the start of {@code file}, a
     * writable mapping of the segment. The sync thread writes marks through {@link Segment}; this
     * is for tools that rewrite a closed log (truncation lowers a mark that lies past the cut).
     */
    public static void writeDurableMark(ByteBuffer file, long segmentId, long mark) {
        file.duplicate().order(ByteOrder.LITTLE_ENDIAN)
                .putLong(DURABLE_MARK_OFFSET, mark)
                .putInt(DURABLE_MARK_CRC_OFFSET, durableMarkCrc(segmentId, mark));
    }

    /** CRC32C over (segment id, mark), both little-endian. */
    public static int durableMarkCrc(long segmentId, long mark) {
        return durableMarkCrc(segmentId, mark, ByteBuffer.allocate(16), new CRC32C());
    }

    /** As {@link #durableMarkCrc(long, long)}, with a 16-byte heap buffer and a CRC the caller reuses: allocates nothing. */
    static int durableMarkCrc(long segmentId, long mark, ByteBuffer scratch, CRC32C crc) {
        scratch.clear();
        scratch.order(ByteOrder.LITTLE_ENDIAN).putLong(0, segmentId).putLong(8, mark);
        crc.reset();
        crc.update(scratch);
        return (int) crc.getValue();
    }

    private static int crc(ByteBuffer b, int from, int to) {
        CRC32C crc = new CRC32C();
        ByteBuffer slice = b.duplicate();
        slice.limit(to).position(from);
        crc.update(slice);
        return (int) crc.getValue();
    }

    /** The end of this segment in log positions: the next segment's base position. */
    public long endPosition() {
        return basePosition + segmentSize;
    }
}
