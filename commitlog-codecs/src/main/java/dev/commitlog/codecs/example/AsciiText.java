package dev.commitlog.codecs.example;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import net.openhft.chronicle.core.util.StringUtils;

/**
 * A String's own Latin-1 array when the text is all ASCII (so the array is also its UTF-8), read
 * in place through Chronicle: no copy, nothing allocated, checked eight bytes at a time.
 *
 * <p>Reading a String's array needs {@code java.lang} opened to Chronicle, as the log's other
 * Chronicle flags do. Without them {@link #READABLE} is false and {@link #bytesOf} answers null for
 * every text, so callers take their char-by-char path: slower, never wrong.
 */
final class AsciiText {
    /** {@code String}'s coder for compact (one byte a char) strings. */
    private static final byte LATIN1 = 0;
    /** A byte array read as longs (any byte order: only the OR of the bytes matters). */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    /** The top bit of every byte of a long; a tail byte, sign-extended into it, sets them all. */
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
    /** Whether this JVM lets Chronicle read a String's coder and array. */
    static final boolean READABLE = probe();

    private AsciiText() {
    }

    /** {@code text}'s own array if it is all ASCII and readable, else null. The caller must not write to it. */
    static byte[] bytesOf(String text) {
        if (!READABLE || StringUtils.getStringCoder(text) != LATIN1) {
            return null;
        }
        byte[] latin1 = StringUtils.extractBytes(text);
        long any = 0;
        int i = 0;
        for (; i + Long.BYTES <= latin1.length; i += Long.BYTES) {
            any |= (long) LONGS.get(latin1, i);
        }
        for (; i < latin1.length; i++) {
            any |= latin1[i];
        }
        return (any & HIGH_BITS) == 0 ? latin1 : null;
    }

    private static boolean probe() {
        try {
            String probe = "ascii probe";
            return StringUtils.getStringCoder(probe) == LATIN1 && StringUtils.extractBytes(probe).length == probe.length();
        } catch (RuntimeException | LinkageError e) {
            return false; // java.lang not opened (Chronicle cannot find the fields), or compact strings off
        }
    }
}
