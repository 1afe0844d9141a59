package dev.commitlog.codecs.example;

import dev.commitlog.codec.BytesRecordCodec;
import java.nio.charset.StandardCharsets;
import net.openhft.chronicle.bytes.Bytes;

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
    public static final WalRecordBytesCodec INSTANCE = new WalRecordBytesCodec(AsciiText.READABLE);
    private static final int FIXED = 8 + 4 + 1 + 8 + 8 + 8 + 4;

    /**
     * Whether ASCII notes are read from the String's own array ({@link AsciiText}). A char-by-char
     * UTF-8 length scan (once for the bound, again in encode) and a checked write per char were
     * most of this codec's append-path time, and remain the path for any other note.
     */
    private final boolean inPlaceAscii;

    WalRecordBytesCodec(boolean inPlaceAscii) {
        this.inPlaceAscii = inPlaceAscii;
    }

    @Override
    public int maxEncodedLength(WalRecord record) {
        byte[] ascii = inPlaceAscii ? AsciiText.bytesOf(record.note) : null;
        int note = ascii != null ? ascii.length : utf8Length(record.note);
        return FIXED + stopBitLength(record.key.length) + record.key.length + stopBitLength(note) + note;
    }

    @Override
    public void encode(WalRecord record, Bytes<?> target) {
        target.writeLong(record.txnId).writeInt(record.tableId).writeByte(record.op).writeLong(record.commitTimeMicros)
                .writeLong(record.balance).writeDouble(record.price).writeInt(record.quantity);
        target.writeStopBit(record.key.length).write(record.key);
        byte[] ascii = inPlaceAscii ? AsciiText.bytesOf(record.note) : null;
        if (ascii != null) {
            target.writeStopBit(ascii.length).write(ascii); // UTF-8 of ASCII text is its Latin-1 bytes: one bulk copy
            return;
        }
        target.writeStopBit(utf8Length(record.note));
        writeUtf8(record.note, target);
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
