package dev.commitlog;

import java.nio.file.Path;

/**
 * Told about each piece of damage that recovery or replay found and, by the policy in force, went
 * past (a skipped record, a discarded torn tail). The policy decides; the listener only hears.
 *
 * <p>The log calls {@link #onCorruption(Path, long, long, Damage, String, String)}, which carries
 * the {@link Damage} kind and by default hands the report to the five-argument method, so a lambda
 * hears every report. A listener that acts on the kind (alerting on corruption but not on the torn
 * tail a crash leaves, say) overrides the six-argument method instead of reading the reason.
 */
@FunctionalInterface
public interface CorruptionListener {
    /**
     * What a report (or a {@link CorruptLogException}) is about. The reason text says more, for
     * people; code decides by the kind.
     */
    enum Damage {
        /**
         * A bad frame at or after the highest durable mark: bytes that were never flushed, torn or
         * lost by a crash. The log ends there; under {@code strict} the log does not open.
         */
        TORN_TAIL,
        /**
         * A frame below the durable mark that does not verify (length word, checksum, padding, an
         * aborted claim's or end marker's checksum), or no frame where a flushed one must be:
         * damage after the flush, which a crash cannot explain.
         */
        BAD_FRAME,
        /**
         * A segment file whose header does not verify, or disagrees with the file's name or size:
         * none of the file can be read.
         */
        DAMAGED_HEADER,
        /** Log positions that no segment file holds, between two that do: a segment file is gone or was renamed. */
        GAP,
        /** A segment file that starts inside positions an earlier one already holds: a copied or misnamed file. */
        OVERLAP
    }

    /**
     * @param file     the segment file
     * @param offset   the byte offset in that file
     * @param position the log position
     * @param reason   what is wrong
     * @param action   what was done about it (skipped, truncated, ...)
     */
    void onCorruption(Path file, long offset, long position, String reason, String action);

    /**
     * The report the log makes, with the kind of damage. By default calls
     * {@link #onCorruption(Path, long, long, String, String)}.
     *
     * @param damage what kind of damage it is
     */
    default void onCorruption(Path file, long offset, long position, Damage damage, String reason, String action) {
        onCorruption(file, offset, position, reason, action);
    }
}
