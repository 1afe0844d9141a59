package dev.commitlog.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Opens segment files for {@code O_DIRECT} writes ({@code commitlog_disk_access_mode: direct}),
 * and writes a new one's zeros that way, failing with a message that names the setting when the
 * file system cannot take them: one whose
 * block does not divide {@value DirectFlushBlocks#BLOCK} bytes (the JDK then refuses every write
 * not aligned to it), or one that refuses {@code O_DIRECT} at all (tmpfs before Linux 6.6, some
 * FUSE and network file systems).
 */
final class DirectChannels {
    private static final int ZERO_CHUNK = 1 << 20;

    private DirectChannels() {
    }

    /** An uninterruptible channel on {@code path}, opened with {@code O_DIRECT}. */
    static FileChannel open(Path path) throws IOException {
        checkBlockSize(path, Files.getFileStore(path).getBlockSize());
        FileChannel channel = open(path, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE, DirectOpenOption.direct()));
        UninterruptibleChannels.make(channel);
        return channel;
    }

    /** A new file at {@code path} with {@code permissions} (before the umask), open for {@code O_DIRECT} writes. */
    static FileChannel create(Path path, Set<PosixFilePermission> permissions) throws IOException {
        checkBlockSize(path, Files.getFileStore(path.getParent()).getBlockSize());
        return open(path, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, DirectOpenOption.direct()),
                PosixFilePermissions.asFileAttribute(permissions));
    }

    /** Writes {@code header} and then zeros over the whole new file, {@code size} bytes (whole blocks), with {@code O_DIRECT}. */
    static void writeZeros(FileChannel channel, int size, ByteBuffer header) throws IOException {
        int chunk = Math.min(ZERO_CHUNK, size);
        ByteBuffer zeros = ByteBuffer.allocateDirect(chunk + DirectFlushBlocks.BLOCK).alignedSlice(DirectFlushBlocks.BLOCK)
                .limit(chunk).slice();
        zeros.put(0, header.duplicate().clear(), 0, header.capacity()); // the first chunk carries the header
        writeFully(channel, zeros, 0);
        zeros.put(0, new byte[header.capacity()]);
        for (long at = chunk; at < size; at += chunk) {
            zeros.clear().limit((int) Math.min(chunk, size - at));
            writeFully(channel, zeros, at);
        }
    }

    private static void writeFully(FileChannel channel, ByteBuffer bytes, long at) throws IOException {
        while (bytes.hasRemaining()) {
            channel.write(bytes, at + bytes.position());
        }
    }

    private static FileChannel open(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attributes) throws IOException {
        try {
            return FileChannel.open(path, options, attributes);
        } catch (FileAlreadyExistsException e) {
            throw e;
        } catch (IOException | UnsupportedOperationException e) {
            throw new IOException(path + ": commitlog_disk_access_mode is direct, but the file system refused O_DIRECT ("
                    + e + "); set commitlog_disk_access_mode: standard", e);
        }
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
