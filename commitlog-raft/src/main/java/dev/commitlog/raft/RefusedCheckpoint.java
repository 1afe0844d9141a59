package dev.commitlog.raft;

/**
 * Why an index checkpoint file is not trusted: the first {@code init} then falls back to an older
 * checkpoint, or to replaying the whole log. Stackless: a refusal is an answer, not a failure.
 */
final class RefusedCheckpoint extends Exception {
    private static final long serialVersionUID = 1L;

    enum Reason {
        /** The file could not be read. */
        UNREADABLE,
        /** Its length, magic, version or CRC is wrong: torn by a crash, or damaged since. */
        DAMAGED,
        /** Its start or its INDEX_CHECKPOINT record lies past the log's durable end: the log lost what it covered. */
        PAST_DURABLE_END,
        /** Its start lies below the oldest segment left: the records between them are gone. */
        DISCARDED,
        /** The log holds no INDEX_CHECKPOINT record with its nonce and start at its mark: the file belongs to another history of the log. */
        NOT_VOUCHED_FOR,
        /** Its CRC holds but its contents break the layout's rules. */
        INCONSISTENT
    }

    private final Reason reason;
    private final String file;

    RefusedCheckpoint(Reason reason, String file, String detail) {
        super("index checkpoint " + file + " not used (" + reason + "): " + detail, null, false, false);
        this.reason = reason;
        this.file = file;
    }

    Reason reason() {
        return reason;
    }

    String file() {
        return file;
    }
}
