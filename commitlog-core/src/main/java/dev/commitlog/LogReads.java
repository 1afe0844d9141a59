package dev.commitlog;

import dev.commitlog.io.StorageLayer;
import dev.commitlog.read.RecordReader;
import dev.commitlog.read.SegmentTailer;
import dev.commitlog.replay.LogPositions;
import dev.commitlog.replay.Replayer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * The read side behind {@link CommitLog}'s replay, tailer and readAt methods: each checks that the
 * log is open and the caller's position ({@link LogPositions}), then reads through its reader, and
 * turns an I/O failure into an {@link UncheckedIOException} that names the directory.
 */
final class LogReads implements AutoCloseable {
    private final OpenState state;
    private final StorageLayer storage;
    private final Path directory;
    private final LongSupplier durablePosition;
    private final Replayer replayer;
    private final RecordReader reader;
    /** The lock deletions of segment files hold: a replay never finds a file gone half-way. */
    private final Object maintenance;

    LogReads(OpenState state, StorageLayer storage, Path directory, LongSupplier durablePosition, Replayer replayer,
             RecordReader reader, Object maintenance) {
        this.state = state;
        this.storage = storage;
        this.directory = directory;
        this.durablePosition = durablePosition;
        this.replayer = replayer;
        this.reader = reader;
        this.maintenance = maintenance;
    }

    void replay(long fromPosition, RecordHandler handler) {
        synchronized (maintenance) {
            long durable = replayLimit(fromPosition);
            try {
                replayer.replay(directory, fromPosition, durable, handler);
            } catch (IOException e) {
                throw replayFailed(e);
            }
        }
    }

    void replayBytes(long fromPosition, BytesRecordHandler handler) {
        synchronized (maintenance) {
            long durable = replayLimit(fromPosition);
            try {
                replayer.replayBytes(directory, fromPosition, durable, handler);
            } catch (IOException e) {
                throw replayFailed(e);
            }
        }
    }

    LogTailer tailer(long fromPosition) throws IOException {
        state.checkOpen();
        return SegmentTailer.open(storage, directory, reader.mappings(), durablePosition, state::isCloseFinished, fromPosition);
    }

    byte[] readAt(long position) {
        state.checkOpen();
        try {
            return reader.read(position);
        } catch (IOException e) {
            throw readFailed(position, e);
        }
    }

    int readAt(long position, ByteBuffer into) {
        state.checkOpen();
        try {
            return reader.read(position, into);
        } catch (IOException e) {
            throw readFailed(position, e);
        }
    }

    void readAt(long position, RecordHandler handler) {
        state.checkOpen();
        try {
            reader.read(position, handler);
        } catch (IOException e) {
            throw readFailed(position, e);
        }
    }

    /** Unmaps what the reader mapped once the reads in progress finish. */
    @Override
    public void close() {
        reader.close();
    }

    /** The durable position a replay from {@code fromPosition} stops at, once the log is open and the position allowed. */
    private long replayLimit(long fromPosition) {
        state.checkOpen();
        long durable = durablePosition.getAsLong();
        LogPositions.requireAtMostDurable(fromPosition, durable, "replay reads only durable records");
        return durable;
    }

    private UncheckedIOException replayFailed(IOException e) {
        return new UncheckedIOException("replay of " + directory + " failed: " + e.getMessage(), e);
    }

    private UncheckedIOException readFailed(long position, IOException e) {
        return new UncheckedIOException("reading log position " + position + " in " + directory + " failed: " + e.getMessage(), e);
    }
}
