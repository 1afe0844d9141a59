package dev.commitlog;

import java.nio.file.Path;

/**
 * Told about each piece of damage that recovery or replay found and, by the policy in force, went
 * past (a skipped record, a discarded torn tail). The policy decides; the listener only hears.
 */
@FunctionalInterface
public interface CorruptionListener {
    /**
     * @param file     the segment file
     * @param offset   the byte offset in that file
     * @param position the log position
     * @param reason   what is wrong
     * @param action   what was done about it (skipped, truncated, ...)
     */
    void onCorruption(Path file, long offset, long position, String reason, String action);
}
