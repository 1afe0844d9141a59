package dev.commitlog.raft;

import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Checkpoint files kept on a {@link StorageLayer} (a {@code SimulatedDisk}), beside the log's
 * segments, so that a crash image holds the checkpoints and the log as one power loss leaves them.
 * {@link StorageLayer#create} is the write: under a temporary name, synced, renamed, directory
 * synced, as {@link DirectoryCheckpointFiles} writes. {@code afterWrite} runs once a file is
 * durable, before the older ones are deleted (a power-loss test takes an image there).
 */
final class DiskCheckpointFiles implements CheckpointFiles {
    private final StorageLayer disk;
    private final Path directory;
    private final Runnable afterWrite;

    DiskCheckpointFiles(StorageLayer disk, Path directory, Runnable afterWrite) {
        this.disk = disk;
        this.directory = directory;
        this.afterWrite = afterWrite;
    }

    @Override
    public List<String> list() throws IOException {
        List<String> names = new ArrayList<>();
        for (Path file : disk.list(directory)) {
            names.add(file.getFileName().toString());
        }
        return names;
    }

    @Override
    public byte[] read(String name) throws IOException {
        try (SegmentFile file = disk.open(directory.resolve(name), false)) {
            byte[] bytes = new byte[file.size()];
            file.buffer().get(0, bytes);
            return bytes;
        }
    }

    @Override
    public void write(String name, byte[] content) throws IOException {
        disk.create(directory.resolve(name), content.length, ByteBuffer.wrap(content), PosixFilePermissions.fromString("rw-r--r--"))
                .close();
        afterWrite.run();
    }

    @Override
    public void delete(Collection<String> names) throws IOException {
        for (String name : names) {
            disk.delete(directory.resolve(name));
        }
        if (!names.isEmpty()) {
            disk.syncDirectory(directory);
        }
    }
}
