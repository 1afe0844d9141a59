package dev.commitlog;

import java.nio.file.Path;

/**
 * Damage found in the log where a crash cannot have caused it (or anywhere, under the strict
 * policy). Names the segment file, the offset in it and the log position, and why.
 */
public class CorruptLogException extends CommitLogException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;
    private final long position;
    private final String reason;

    public CorruptLogException(Path file, long offset, long position, String reason, String advice) {
        super("corrupt commit log: " + file + " at offset " + offset + " (log position " + position + "): " + reason
                + (advice == null || advice.isEmpty() ? "" : ". " + advice));
        this.file = file;
        this.offset = offset;
        this.position = position;
        this.reason = reason;
    }

    public Path file() {
        return file;
    }

    public long offset() {
        return offset;
    }

    public long position() {
        return position;
    }

    public String reason() {
        return reason;
    }
}
