package dev.commitlog.disk;

import dev.commitlog.io.SegmentFile;
import java.nio.ByteBuffer;

/**
 * Zeroes the rest of a mapped segment file, writing only where a byte is not zero already: a tail
 * that is mostly zeros (the usual case: recovery's tail, a prepared segment) is read, not dirtied,
 * so the flush that follows has only the changed pages to write.
 */
public final class ZeroFill {
    private ZeroFill() {
    }

    /**
     * Zeroes {@code file} from {@code offset} to its end; flushing is the caller's.
     *
     * @return the end of the last byte it changed, or {@code offset} if every byte was zero
     */
    public static int from(SegmentFile file, int offset) {
        ByteBuffer bytes = file.buffer();
        int size = file.size();
        int changedTo = offset;
        int i = offset;
        for (; i < size && (i & 7) != 0; i++) {
            if (bytes.get(i) != 0) {
                bytes.put(i, (byte) 0);
                changedTo = i + 1;
            }
        }
        for (; i + 8 <= size; i += 8) {
            if (bytes.getLong(i) != 0) {
                bytes.putLong(i, 0);
                changedTo = i + 8;
            }
        }
        for (; i < size; i++) {
            if (bytes.get(i) != 0) {
                bytes.put(i, (byte) 0);
                changedTo = i + 1;
            }
        }
        return changedTo;
    }
}
