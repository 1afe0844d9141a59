package dev.commitlog.examples;

/**
 * A trade, the record type of {@link TypedRecords}, logged through {@link TradeCodec}.
 *
 * @param symbol 1 to 255 ASCII characters, so that the codec writes one byte a character
 */
public record Trade(long id, String symbol, int quantity, long priceCents) {
    public Trade {
        if (symbol.isEmpty() || symbol.length() > 255 || !symbol.chars().allMatch(c -> c < 128)) {
            throw new IllegalArgumentException("a symbol is 1 to 255 ASCII characters, not \"" + symbol + "\"");
        }
    }
}
