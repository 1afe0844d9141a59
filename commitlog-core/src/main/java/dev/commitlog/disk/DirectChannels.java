package dev.commitlog.disk;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * Opens segment files for {@code O_DIRECT} writes ({@code commitlog_disk_access_mode: direct}),
 * failing with a message that names the setting when the file system cannot take them: one whose
 * block does not divide {@value DirectFlushBlocks#BLOCK} bytes (the JDK then refuses every write
 * not aligned to it), or one that refuses {@code O_DIRECT} at all (tmpfs before Linux 6.6, some
 * FUSE and network file systems).
 */
final class DirectChannels {
    private DirectChannels() {
    }

    /** An uninterruptible channel on {@code path}, opened with {@code O_DIRECT}. */
    static FileChannel open(Path path) throws IOException {
        checkBlockSize(path, Files.getFileStore(path).getBlockSize());
        FileChannel channel;
        try {
            channel = FileChannel.open(path, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT));
        } catch (IOException | UnsupportedOperationException e) {
            throw new IOException(path + ": commitlog_disk_access_mode is direct, but the file system refused O_DIRECT ("
                    + e + "); set commitlog_disk_access_mode: standard", e);
        }
        UninterruptibleChannels.make(channel);
        return channel;
    }

    /** Refuses a file system whose block ({@code blockSize} bytes) a direct write of whole 4 KiB blocks cannot be aligned to. */
    static void checkBlockSize(Path path, long blockSize) throws IOException {
        if (blockSize <= 0 || blockSize > DirectFlushBlocks.BLOCK || DirectFlushBlocks.BLOCK % blockSize != 0) {
            throw new IOException(path + ": commitlog_disk_access_mode is direct, but the file system's block is " + blockSize
                    + " bytes; direct writes go in " + DirectFlushBlocks.BLOCK + "-byte blocks, which need a block size that "
                    + "divides " + DirectFlushBlocks.BLOCK + "; set commitlog_disk_access_mode: standard");
        }
    }
}
