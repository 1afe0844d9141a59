package dev.commitlog.codecs.example;

import dev.commitlog.codec.BytesRecordCodec;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.core.util.StringUtils;

/**
 * A hand-written Chronicle Bytes codec for {@link WalRecord}: fixed-width fields in the log's
 * native byte order, then the key and the note, each after a stop-bit length. It writes in place
 * into the claimed segment memory, knows its exact size up front (so the claim never shrinks) and
 * allocates nothing to encode; decoding allocates the record, its key and its note.
 *
 * <pre>
 *   txnId i64 | tableId i32 | op i8 | commitTimeMicros i64 | balance i64 | price f64 | quantity i32
 *   | keyLength stop-bit | key | noteLength stop-bit (UTF-8 bytes) | note UTF-8
 * </pre>
 */
public final class WalRecordBytesCodec implements BytesRecordCodec<WalRecord> {
    public static final WalRecordBytesCodec INSTANCE = new WalRecordBytesCodec();
    private static final int FIXED = 8 + 4 + 1 + 8 + 8 + 8 + 4;
    /** {@code String}'s coder for compact (one byte a char) strings. */
    private static final byte LATIN1 = 0;
    /** A byte array read as longs (any byte order: only the OR of the bytes matters). */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    /** The top bit of every byte of a long; a tail byte, sign-extended into it, sets them all. */
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

    @Override
    public int maxEncodedLength(WalRecord record) {
        byte[] ascii = asciiBytes(record.note);
        int note = ascii != null ? ascii.length : utf8Length(record.note);
        return FIXED + stopBitLength(record.key.length) + record.key.length + stopBitLength(note) + note;
    }

    @Override
    public void encode(WalRecord record, Bytes<?> target) {
        target.writeLong(record.txnId).writeInt(record.tableId).writeByte(record.op).writeLong(record.commitTimeMicros)
                .writeLong(record.balance).writeDouble(record.price).writeInt(record.quantity);
        target.writeStopBit(record.key.length).write(record.key);
        byte[] ascii = asciiBytes(record.note);
        if (ascii != null) {
            target.writeStopBit(ascii.length).write(ascii); // UTF-8 of ASCII text is its Latin-1 bytes: one bulk copy
        } else {
            target.writeStopBit(utf8Length(record.note));
            writeUtf8(record.note, target);
        }
    }

    @Override
    public WalRecord decode(Bytes<?> source) {
        WalRecord record = new WalRecord();
        record.txnId = source.readLong();
        record.tableId = source.readInt();
        record.op = source.readByte();
        record.commitTimeMicros = source.readLong();
        record.balance = source.readLong();
        record.price = source.readDouble();
        record.quantity = source.readInt();
        record.key = new byte[(int) source.readStopBit()];
        source.read(record.key);
        byte[] note = new byte[(int) source.readStopBit()];
        source.read(note);
        record.note = new String(note, StandardCharsets.UTF_8);
        return record;
    }

    /**
     * The String's own Latin-1 array when {@code text} is all ASCII (so it is also its UTF-8), or
     * null. Read in place through Chronicle (no copy, nothing allocated): a char-by-char scan and a
     * checked write per byte were most of this codec's encoding time, as notes are 40-160 chars.
     * Checked eight bytes at a time: the OR of every byte has its top bit set exactly when one byte
     * is above 0x7F.
     */
    static byte[] asciiBytes(String text) {
        if (StringUtils.getStringCoder(text) != LATIN1) {
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

    /** The UTF-8 length of {@code text} as {@link #writeUtf8} writes it (and as String.getBytes(UTF_8) does). */
    static int utf8Length(String text) {
        int length = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                length += 1;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                length += 4;
                i++;
            } else {
                length += Character.isSurrogate(c) ? 1 : 3; // a lone surrogate becomes '?', as in String.getBytes
            }
        }
        return length;
    }

    /** Writes {@code text} as UTF-8, char by char: no allocation, and exactly {@link #utf8Length} bytes. */
    private static void writeUtf8(String text, Bytes<?> target) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                target.writeByte((byte) c);
            } else if (c < 0x800) {
                target.writeByte((byte) (0xC0 | c >> 6)).writeByte((byte) (0x80 | c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                int code = Character.toCodePoint(c, text.charAt(++i));
                target.writeByte((byte) (0xF0 | code >> 18)).writeByte((byte) (0x80 | code >> 12 & 0x3F))
                        .writeByte((byte) (0x80 | code >> 6 & 0x3F)).writeByte((byte) (0x80 | code & 0x3F));
            } else if (Character.isSurrogate(c)) {
                target.writeByte((byte) '?');
            } else {
                target.writeByte((byte) (0xE0 | c >> 12)).writeByte((byte) (0x80 | c >> 6 & 0x3F)).writeByte((byte) (0x80 | c & 0x3F));
            }
        }
    }

    private static int stopBitLength(int value) {
        return value < 1 << 7 ? 1 : value < 1 << 14 ? 2 : value < 1 << 21 ? 3 : value < 1 << 28 ? 4 : 5;
    }

    @Override
    public String toString() {
        return "WalRecordBytesCodec";
    }
}
