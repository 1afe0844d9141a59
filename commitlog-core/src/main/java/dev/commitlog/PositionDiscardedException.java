package dev.commitlog;

/**
 * A reader asked for a log position whose segment file was deleted by {@code discardUpTo}: the
 * records there are gone from the log. The reader must decide what that means for it (a replica
 * that fell this far behind needs a snapshot); to go on from what is left, open a new tailer at
 * {@link #oldestPosition()}.
 */
public final class PositionDiscardedException extends CommitLogException {
    private static final long serialVersionUID = 1L;

    private final long position;
    private final long oldestPosition;

    public PositionDiscardedException(long position, long oldestPosition) {
        super("log position " + position + " was discarded (discardUpTo deleted its segment); the oldest position still in the log is "
                + oldestPosition);
        this.position = position;
        this.oldestPosition = oldestPosition;
    }

    /** The position that was asked for. */
    public long position() {
        return position;
    }

    /** The start of the oldest segment still in the log. */
    public long oldestPosition() {
        return oldestPosition;
    }
}
