package dev.commitlog.raft;

import java.util.Collection;
import java.util.List;

/** Checkpoint files that are never there: a shared log over them replays the whole log at its first init, and writes none. */
final class NoCheckpointFiles implements CheckpointFiles {
    @Override
    public List<String> list() {
        return List.of();
    }

    @Override
    public byte[] read(String name) {
        throw new IllegalStateException("no checkpoint files here: " + name);
    }

    @Override
    public void write(String name, byte[] content) {
        // kept nowhere
    }

    @Override
    public void delete(Collection<String> names) {
        // nothing to delete
    }
}
