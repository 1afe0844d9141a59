package dev.commitlog.raft;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Checkpoint files in a directory of the file system (the shared log's own, whose lock keeps other
 * processes out): written as the log creates its segments, under a temporary name, forced, renamed
 * and the directory forced, so that a crash leaves the file whole or absent.
 */
final class DirectoryCheckpointFiles implements CheckpointFiles {
    private final Path directory;
    private final Set<PosixFilePermission> permissions;

    DirectoryCheckpointFiles(Path directory, Set<PosixFilePermission> permissions) {
        this.directory = directory;
        this.permissions = permissions;
    }

    @Override
    public List<String> list() throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            files.filter(Files::isRegularFile).forEach(file -> names.add(file.getFileName().toString()));
        } catch (NoSuchFileException e) {
            return List.of();
        }
        return names;
    }

    @Override
    public byte[] read(String name) throws IOException {
        return Files.readAllBytes(directory.resolve(name));
    }

    @Override
    public void write(String name, byte[] content) throws IOException {
        Path path = directory.resolve(name);
        Path temp = directory.resolve(name + IndexCheckpointDescriptor.TEMP_SUFFIX);
        Files.deleteIfExists(temp);
        try (FileChannel channel = FileChannel.open(temp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(permissions))) {
            Files.setPosixFilePermissions(temp, permissions); // the create mode is filtered by the umask
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE);
        syncDirectory();
    }

    @Override
    public void delete(Collection<String> names) throws IOException {
        if (names.isEmpty()) {
            return;
        }
        for (String name : names) {
            Files.deleteIfExists(directory.resolve(name));
        }
        syncDirectory();
    }

    private void syncDirectory() throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    @Override
    public String toString() {
        return directory.toString();
    }
}
