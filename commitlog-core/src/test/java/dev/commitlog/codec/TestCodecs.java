package dev.commitlog.codec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import net.openhft.chronicle.bytes.Bytes;

/** Small codecs for the core tests, one per path through the log: exact, bounded, unbounded, Chronicle Bytes. */
public final class TestCodecs {
    private TestCodecs() {
    }

    /** UTF-8 text bounded by 3 bytes a char: ASCII text uses a third of its claim, so every claim shrinks. */
    public static final RecordCodec<String> BOUNDED_TEXT = new RecordCodec<>() {
        @Override
        public int maxEncodedLength(String record) {
            return 3 * record.length();
        }

        @Override
        public void encode(String record, ByteBuffer target) {
            target.put(record.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String decode(ByteBuffer source) {
            byte[] bytes = new byte[source.remaining()];
            source.get(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "BOUNDED_TEXT";
        }
    };

    /** UTF-8 text with no bound: the log stages and copies it. */
    public static final RecordCodec<String> UNBOUNDED_TEXT = new RecordCodec<>() {
        @Override
        public int maxEncodedLength(String record) {
            return UNKNOWN_LENGTH;
        }

        @Override
        public void encode(String record, ByteBuffer target) {
            BOUNDED_TEXT.encode(record, target);
        }

        @Override
        public String decode(ByteBuffer source) {
            return BOUNDED_TEXT.decode(source);
        }

        @Override
        public String toString() {
            return "UNBOUNDED_TEXT";
        }
    };

    /** Two longs through Chronicle Bytes, exact size. */
    public static final BytesRecordCodec<long[]> LONG_PAIR = new BytesRecordCodec<>() {
        @Override
        public int maxEncodedLength(long[] record) {
            return 16;
        }

        @Override
        public void encode(long[] record, Bytes<?> target) {
            target.writeLong(record[0]).writeLong(record[1]);
        }

        @Override
        public long[] decode(Bytes<?> source) {
            return new long[] {source.readLong(), source.readLong()};
        }
    };

    /**
     * A long and a text, bounded (8 + 3 bytes a char), written through a ByteBuffer, decoded into one
     * reused holder: no allocation per record either way (ASCII text).
     */
    public static final class Keyed {
        public long key;
        public final StringBuilder text = new StringBuilder();
    }

    public static final class KeyedCodec implements RecordCodec<Keyed> {
        private final Keyed reused = new Keyed();
        private final boolean bounded;

        /** @param bounded false: claim no bound, so the log stages and copies */
        public KeyedCodec(boolean bounded) {
            this.bounded = bounded;
        }

        @Override
        public int maxEncodedLength(Keyed record) {
            return bounded ? 8 + 3 * record.text.length() : UNKNOWN_LENGTH;
        }

        @Override
        public void encode(Keyed record, ByteBuffer target) {
            target.putLong(record.key);
            for (int i = 0; i < record.text.length(); i++) {
                target.put((byte) record.text.charAt(i)); // ASCII only, for the test
            }
        }

        @Override
        public Keyed decode(ByteBuffer source) {
            reused.key = source.getLong();
            reused.text.setLength(0);
            while (source.hasRemaining()) {
                reused.text.append((char) source.get());
            }
            return reused;
        }
    }
}
