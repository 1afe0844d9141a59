package dev.commitlog.disk;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The one-writer rule: an exclusive lock on {@code commitlog.lock} in the log directory, held
 * from open to close. A second process, or a second open in this JVM, fails at once instead of
 * interleaving writes with the first.
 */
public final class DirectoryLock implements AutoCloseable {
    public static final String LOCK_FILE = "commitlog.lock";

    private final FileChannel channel;
    private final FileLock lock;
    private final Path lockFile;
    /** Whether {@link #acquire} made the lock file (it did not exist before). */
    private final boolean created;

    private DirectoryLock(FileChannel channel, FileLock lock, Path lockFile, boolean created) {
        this.channel = channel;
        this.lock = lock;
        this.lockFile = lockFile;
        this.created = created;
    }

    /** Takes the lock or throws {@link IOException} saying who holds it. */
    public static DirectoryLock acquire(Path directory) throws IOException {
        Path lockFile = directory.resolve(LOCK_FILE);
        boolean existed = Files.exists(lockFile);
        FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new IOException("commit log directory " + directory + " is locked by another process ("
                        + lockFile + "); only one writer may open a log");
            }
            return new DirectoryLock(channel, lock, lockFile, !existed);
        } catch (OverlappingFileLockException e) {
            channel.close();
            throw new IOException("commit log directory " + directory + " is already open in this JVM; only one writer may open a log", e);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Releases the lock and, if {@link #acquire} made the lock file, deletes it first (still under
     * the lock): for a tool run or a failed open, which should leave the directory as it found it.
     */
    public void closeLeavingNoTrace() throws IOException {
        try {
            if (created) {
                Files.deleteIfExists(lockFile);
            }
        } finally {
            close();
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
