package dev.commitlog.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;

/**
 * Every file operation the log performs, behind one narrow interface, so that tests can replace
 * it with one that drops unsynced data, tears writes and fails on command (LevelDB's
 * fault_injection_test). The default, over a real disk, is {@code CommitLogOptions.defaults().storage()}.
 */
public interface StorageLayer {
    /**
     * Creates a segment file durably: a zero-filled file of {@code size} bytes whose first bytes
     * are {@code header}, written under a temporary name, synced, renamed to {@code path}, and the
     * directory synced, so that after a crash the file either does not exist or is complete.
     */
    SegmentFile create(Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions) throws IOException;

    /** Maps an existing segment file, for writing or read-only. */
    SegmentFile open(Path path, boolean writable) throws IOException;

    /** The regular files in {@code directory}, in no particular order. */
    List<Path> list(Path directory) throws IOException;

    /**
     * The entries of {@code directory} that are not regular files (directories, dangling links,
     * sockets), so that one named like a segment file can be refused rather than passed over.
     * None, for a file layer that holds only files.
     */
    default List<Path> listOther(Path directory) throws IOException {
        return List.of();
    }

    /** The length of a file in bytes. */
    long size(Path path) throws IOException;

    void delete(Path path) throws IOException;

    /** Makes the directory's entries (creations, renames, deletions) durable. */
    void syncDirectory(Path directory) throws IOException;
}
