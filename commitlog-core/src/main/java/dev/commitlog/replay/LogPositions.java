package dev.commitlog.replay;

/**
 * The one rule for a log position that a caller passes in, with the refusals every method that
 * takes one throws: a position is never negative, never past the durable position (nothing a
 * crash could take back is read, and nothing not yet durable is discarded), and, where a record
 * start is needed, it is one ({@link FrameBoundaries}). A refusal is an
 * {@link IllegalArgumentException} that names the position and what is allowed; the refused call
 * changes nothing.
 */
public final class LogPositions {
    private LogPositions() {
    }

    /**
     * Refuses a negative {@code position} or one past {@code durable}.
     *
     * @param allowed what the call allows instead, ending the message past the durable position
     */
    public static void requireAtMostDurable(long position, long durable, String allowed) {
        requireNotNegative(position);
        if (position > durable) {
            throw new IllegalArgumentException("log position " + position + " is past the durable position " + durable + ": " + allowed);
        }
    }

    /** Refuses a negative {@code position} or one at or past {@code durable}: a record that starts there is not durable. */
    public static void requireBelowDurable(long position, long durable) {
        requireNotNegative(position);
        if (position >= durable) {
            throw new IllegalArgumentException("log position " + position + " is at or past the durable position " + durable
                    + ": only durable records can be read");
        }
    }

    private static void requireNotNegative(long position) {
        if (position < 0) {
            throw new IllegalArgumentException("log position " + position + " is negative: log positions are >= 0");
        }
    }

    /** The refusal of a position where a record start is needed and none is. */
    public static IllegalArgumentException notARecordStart(long position, String why) {
        return new IllegalArgumentException("log position " + position + " is not the start of a record: " + why);
    }
}
