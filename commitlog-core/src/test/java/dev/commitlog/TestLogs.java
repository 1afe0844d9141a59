package dev.commitlog;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Helpers shared by the core tests: configs for each mode, and replay into a list. */
final class TestLogs {
    static final int SMALL_SEGMENT = 64 * 1024;

    private TestLogs() {
    }

    static CommitLogConfig.Builder config(Path dir, SyncMode mode) {
        CommitLogConfig.Builder builder = CommitLogConfig.builder(dir).syncMode(mode);
        return switch (mode) {
            case PERIODIC -> builder.syncPeriod(Duration.ofMillis(20)).periodicLagBlock(Duration.ofSeconds(5));
            case GROUP -> builder.groupWindow(Duration.ofMillis(1));
            default -> builder;
        };
    }

    record Entry(long position, byte[] payload) {
    }

    static List<Entry> replayAll(CommitLog log) throws IOException {
        return replayFrom(log, 0);
    }

    static List<Entry> replayFrom(CommitLog log, long from) throws IOException {
        List<Entry> entries = new ArrayList<>();
        log.replay(from, (position, payload) -> entries.add(new Entry(position, payload.toByteArray())));
        return entries;
    }

    /** A deterministic payload for record {@code i}: its index, then filler, {@code length} bytes. */
    static byte[] payload(int i, int length) {
        byte[] bytes = new byte[length];
        for (int b = 0; b < length; b++) {
            bytes[b] = (byte) (i * 31 + b * 7);
        }
        return bytes;
    }
}
