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

    /**
     * Keeps a discarded segment file for reuse: renames {@code segment} to {@code spare} (same
     * directory); the caller syncs the directory. Returns false, having deleted {@code segment},
     * when this layer does not reuse files: then its logs delete what they would recycle.
     */
    default boolean retire(Path segment, Path spare) throws IOException {
        delete(segment);
        return false;
    }

    /**
     * Turns a file {@link #retire} kept into a new segment, as durably as {@link #create} makes
     * one, without writing the rest of it: {@code header} and the 8 bytes after it (zeros) are
     * written over the old contents and synced, then the file is renamed to {@code path} and the
     * directory synced. After a crash, {@code spare} still exists (with its old or its new header)
     * or {@code path} is complete. Bytes past the first 72 keep the file's former contents on the
     * device; the returned file's {@link SegmentFile#buffer()} (the writer's memory) reads zeros
     * there, as after {@link #create}. A spare that is not {@code size} bytes long is deleted and a
     * new file created. The default deletes the spare and creates a new file.
     */
    default SegmentFile reuse(Path spare, Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions)
            throws IOException {
        delete(spare);
        return create(path, size, header, permissions);
    }

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
