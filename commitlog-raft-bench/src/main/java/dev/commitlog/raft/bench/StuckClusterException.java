package dev.commitlog.raft.bench;

/** A cluster that did not shut down: the run cannot go on in this JVM (see RaftBenchRunner). */
final class StuckClusterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StuckClusterException(String message) {
        super(message);
    }
}
