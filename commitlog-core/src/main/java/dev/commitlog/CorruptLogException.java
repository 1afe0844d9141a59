package dev.commitlog;

import dev.commitlog.CorruptionListener.Damage;
import java.nio.file.Path;

/**
 * Damage found in the log where a crash cannot have caused it (or anywhere, under the strict
 * policy). Names the segment file, the offset in it and the log position, the kind of damage, and
 * why.
 */
public class CorruptLogException extends CommitLogException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;
    private final long position;
    private final Damage damage;
    private final String reason;

    /** Damage of no stated kind: {@link #damage()} is null. The log itself always states the kind. */
    public CorruptLogException(Path file, long offset, long position, String reason, String advice) {
        this(file, offset, position, null, reason, advice);
    }

    /** @param damage what kind of damage it is */
    public CorruptLogException(Path file, long offset, long position, Damage damage, String reason, String advice) {
        super("corrupt commit log: " + file + " at offset " + offset + " (log position " + position + "): " + reason
                + (advice == null || advice.isEmpty() ? "" : ". " + advice));
        this.file = file;
        this.offset = offset;
        this.position = position;
        this.damage = damage;
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

    /** What kind of damage it is (a torn tail under {@code strict}, a bad frame, ...); null only if built without one. */
    public Damage damage() {
        return damage;
    }

    public String reason() {
        return reason;
    }
}
