package dev.commitlog.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
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

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock or throws {@link IOException} saying who holds it. */
    public static DirectoryLock acquire(Path directory) throws IOException {
        Path lockFile = directory.resolve(LOCK_FILE);
        FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new IOException("commit log directory " + directory + " is locked by another process ("
                        + lockFile + "); only one writer may open a log");
            }
            return new DirectoryLock(channel, lock);
        } catch (OverlappingFileLockException e) {
            channel.close();
            throw new IOException("commit log directory " + directory + " is already open in this JVM; only one writer may open a log", e);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
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
