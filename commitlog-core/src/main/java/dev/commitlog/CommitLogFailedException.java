package dev.commitlog;

/**
 * A flush failed, so the log can no longer promise durability: the appends waiting on that flush,
 * and every append after it, get this exception until the log is reopened (which re-reads what is
 * really on disk). A failed flush is never retried and then trusted: after an fsync error the
 * kernel may already have dropped the dirty pages (PostgreSQL "fsyncgate", 2018).
 */
public class CommitLogFailedException extends CommitLogException {
    private static final long serialVersionUID = 1L;

    public CommitLogFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
