package dev.commitlog;

/** Base of the exceptions the log throws for its own failures (not for misuse of arguments). */
public class CommitLogException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CommitLogException(String message) {
        super(message);
    }

    public CommitLogException(String message, Throwable cause) {
        super(message, cause);
    }
}
