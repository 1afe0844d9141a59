package dev.commitlog.examples;

import dev.commitlog.codec.BytesRecordCodec;
import net.openhft.chronicle.bytes.Bytes;

/**
 * {@link Trade}'s layout in the log, written and read as Chronicle {@code Bytes} (native byte order):
 *
 * <pre>
 * id          8 bytes
 * priceCents  8 bytes
 * quantity    4 bytes
 * symbol      1 byte length, then one byte per (ASCII) character
 * </pre>
 *
 * <p>{@link #maxEncodedLength} is exact, so {@code CommitLog.append(trade, codec)} claims exactly the
 * record's bytes in the mapped segment and {@link #encode} writes them there: no staging buffer, no
 * copy. Replay hands {@link #decode} the frame in the mapped segment, also without a copy. A codec
 * is stateless here: one instance serves every thread.
 */
public final class TradeCodec implements BytesRecordCodec<Trade> {
    public static final TradeCodec INSTANCE = new TradeCodec();
    private static final int FIXED = Long.BYTES + Long.BYTES + Integer.BYTES + 1;

    private TradeCodec() {
    }

    @Override
    public int maxEncodedLength(Trade trade) {
        return FIXED + trade.symbol().length();
    }

    @Override
    public void encode(Trade trade, Bytes<?> target) {
        String symbol = trade.symbol();
        target.writeLong(trade.id()).writeLong(trade.priceCents()).writeInt(trade.quantity()).writeUnsignedByte(symbol.length());
        for (int i = 0; i < symbol.length(); i++) {
            target.writeUnsignedByte(symbol.charAt(i));
        }
    }

    @Override
    public Trade decode(Bytes<?> source) {
        long id = source.readLong();
        long priceCents = source.readLong();
        int quantity = source.readInt();
        char[] symbol = new char[source.readUnsignedByte()];
        for (int i = 0; i < symbol.length; i++) {
            symbol[i] = (char) source.readUnsignedByte();
        }
        return new Trade(id, new String(symbol), quantity, priceCents);
    }
}
