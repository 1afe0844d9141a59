package dev.commitlog.io;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A flush could not write its bytes to the segment file because the device is full (ENOSPC, or
 * EDQUOT for a quota); possible on copy-on-write and thin-provisioned filesystems, where even an
 * overwrite of preallocated blocks needs new ones.
 *
 * <p>Thrown only by the <em>write</em> step of a flush ({@code pwrite}), before the sync: the sync
 * was never attempted, nothing was promised, and the bytes are still in the writer's mapping, so
 * the flush can be retried as it is once space is freed. A failed sync is never this exception,
 * whatever its errno: after a failed {@code fdatasync} the kernel may have dropped the dirty pages,
 * and a retry could succeed without the data (PostgreSQL "fsyncgate").
 */
public final class NoSpaceLeftException extends IOException {
    private static final long serialVersionUID = 1L;

    public NoSpaceLeftException(Path file, IOException cause) {
        super("no space left to write " + file + " (" + cause.getMessage() + ")", cause);
    }
}
