package dev.commitlog.examples;

import dev.commitlog.CommitLog;
import dev.commitlog.config.CommitLogConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Typed records: {@link Trade}s appended through a codec ({@link TradeCodec}) that encodes each one
 * straight into the mapped segment, then replayed, after a reopen, as {@code Trade}s again.
 *
 * <p>Run it: {@code java -jar examples/target/commitlog-examples.jar typed-records [DIR]} (see
 * examples/README.md).
 */
public final class TypedRecords {
    private static final String[] SYMBOLS = {"ACME", "GLOBEX", "INITECH", "UMBRELLA"};

    private TypedRecords() {
    }

    public static void main(String[] args) throws IOException {
        try (ExampleDirectory directory = ExampleDirectory.of(args, "typed-records")) {
            run(directory.path(), System.out);
        }
    }

    /** The trades appended, and those replayed from the first one's position after a reopen. */
    record Replayed(List<Trade> appended, List<Trade> replayed) {
    }

    /** What {@link #main} does, in {@code directory}. */
    static Replayed run(Path directory, PrintStream out) throws IOException {
        CommitLogConfig config = CommitLogConfig.builder(directory).build();
        List<Trade> appended = new ArrayList<>();
        long first;
        try (CommitLog log = CommitLog.open(config)) {
            first = -1;
            for (int i = 0; i < 1_000; i++) {
                Trade trade = new Trade(i, SYMBOLS[i % SYMBOLS.length], 1 + i % 100, 10_000 + 7L * i);
                long position = log.append(trade, TradeCodec.INSTANCE); // encoded in place; returns once durable
                first = first < 0 ? position : first;
                appended.add(trade);
            }
            out.println("appended " + appended.size() + " trades from log position " + first + ", each encoded by TradeCodec straight"
                    + " into the mapped segment; durable up to position " + log.durablePosition());
        }
        List<Trade> replayed = new ArrayList<>();
        try (CommitLog log = CommitLog.open(config)) {
            log.replay(first, TradeCodec.INSTANCE, (position, trade) -> replayed.add(trade));
        }
        if (!replayed.equals(appended)) {
            throw new IllegalStateException("replayed " + replayed.size() + " trades that differ from the " + appended.size() + " appended");
        }
        long quantity = replayed.stream().mapToLong(Trade::quantity).sum();
        out.println("reopened: replayed the same " + replayed.size() + " trades, decoded by TradeCodec from the mapped segment"
                + " (total quantity " + quantity + ", last " + replayed.get(replayed.size() - 1) + ")");
        return new Replayed(appended, replayed);
    }
}
