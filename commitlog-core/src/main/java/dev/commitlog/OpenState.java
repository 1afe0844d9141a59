package dev.commitlog;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/** Whether the log is open, closing or closed, and the one refusal every operation on a closed log throws. */
final class OpenState {
    private final Path directory;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Set when close has finished: the durable position is final (tailers then end). */
    private volatile boolean closeFinished;

    OpenState(Path directory) {
        this.directory = directory;
    }

    /** Every operation on the log refuses the same way once close began. */
    void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("commit log " + directory + " is closed");
        }
    }

    /** Marks the log closed; true for the one caller that closes it (close is idempotent). */
    boolean beginClose() {
        return closed.compareAndSet(false, true);
    }

    void closeFinished() {
        closeFinished = true;
    }

    /** True once close has finished: read before the durable position, that position is final. */
    boolean isCloseFinished() {
        return closeFinished;
    }
}
