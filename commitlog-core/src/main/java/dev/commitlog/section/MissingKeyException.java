package dev.commitlog.section;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A section is encrypted under a key id that the {@code KeyProvider} does not have. Not damage:
 * the section may be perfectly good, so the log refuses to open (or a reader to go on) rather than
 * cutting the log there. The message names the key id, the file and the section's offset.
 */
public final class MissingKeyException extends IOException {
    private static final long serialVersionUID = 1L;

    MissingKeyException(Path file, long fileOffset, DamagedSectionException cause) {
        super(file + ": the section at file offset " + fileOffset + " " + cause.getMessage() + "; open the log with a "
                + "KeyProvider that has that key id (CommitLogOptions.keyProvider); nothing was cut or changed", cause);
    }
}
