package dev.commitlog.repair;

import dev.commitlog.CommitLogException;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/**
 * Where {@link LogTruncator} keeps what it cuts: copies of the files it rewrites and the files it
 * removes, each synced before the log changes, so that nothing is lost if the cut is interrupted.
 */
final class BackupDirectory {
    private final Path path;
    private final StorageLayer storage;

    private BackupDirectory(Path path, StorageLayer storage) {
        this.path = path;
        this.storage = storage;
    }

    /** Creates {@code path} (which must be empty if it exists, and not the log directory) and syncs its parent. */
    static BackupDirectory create(Path path, Path logDirectory, StorageLayer storage) throws IOException {
        if (Files.exists(path) && Files.isSameFile(path, logDirectory)) {
            throw new CommitLogException("the backup directory " + path + " is the log directory itself");
        }
        if (Files.isDirectory(path)) {
            try (Stream<Path> entries = Files.list(path)) {
                if (entries.findAny().isPresent()) {
                    throw new CommitLogException("the backup directory " + path + " is not empty");
                }
            }
        }
        Files.createDirectories(path);
        storage.syncDirectory(path.toAbsolutePath().getParent());
        return new BackupDirectory(path, storage);
    }

    /** Copies {@code file} in and syncs the copy. */
    void copy(Path file) throws IOException {
        copyDurably(file, path.resolve(file.getFileName()));
    }

    /** Moves {@code file} in: a rename on the same file system, else a synced copy and then a delete. */
    void move(Path file) throws IOException {
        Path target = path.resolve(file.getFileName());
        try {
            Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            copyDurably(file, target);
            Files.delete(file);
        }
    }

    /** Makes the entries copied or moved in durable. */
    void sync() throws IOException {
        storage.syncDirectory(path);
    }

    private static void copyDurably(Path from, Path to) throws IOException {
        Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
        try (FileChannel copy = FileChannel.open(to, StandardOpenOption.WRITE)) {
            copy.force(true);
        }
    }
}
