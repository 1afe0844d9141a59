package dev.commitlog.raft;

import java.io.IOException;
import java.util.Collection;
import java.util.List;

/**
 * Where index checkpoint files are kept: the log's directory ({@link DirectoryCheckpointFiles}),
 * or, in tests, a simulated disk that loses what was not made durable.
 */
interface CheckpointFiles {
    /** The names of the regular files there (the caller picks the checkpoints by name); none if the directory does not exist. */
    List<String> list() throws IOException;

    byte[] read(String name) throws IOException;

    /**
     * Writes {@code content} as {@code name} durably and atomically: under a temporary name
     * ({@code name + ".tmp"}), synced, renamed to {@code name}, and the directory synced. After a
     * crash, {@code name} is absent or whole.
     */
    void write(String name, byte[] content) throws IOException;

    /** Deletes the files, then syncs the directory, so that a crash does not bring them back. */
    void delete(Collection<String> names) throws IOException;
}
