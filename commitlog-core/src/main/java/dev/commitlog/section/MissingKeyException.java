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
    /** Kept as a string: {@link Path} is not serializable. */
    private final String file;
    private final long fileOffset;

    MissingKeyException(Path file, long fileOffset, DamagedSectionException cause) {
        super(file + ": the section at file offset " + fileOffset + " " + cause.getMessage() + "; open the log with a "
                + "KeyProvider that has that key id (CommitLogOptions.keyProvider); nothing was cut or changed", cause);
        this.file = file.toString();
        this.fileOffset = fileOffset;
    }

    /** The segment file holding the section. */
    public Path file() {
        return Path.of(file);
    }

    /** Where in that file the section starts. */
    public long fileOffset() {
        return fileOffset;
    }
}
