package dev.commitlog.raft.bench;

/** A bad command line: reported as one line on stderr, exit code 2. */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
