package dev.commitlog;

/** A record longer than {@code max_record_size}; refused before anything was written. */
public class RecordTooLargeException extends CommitLogException {
    private static final long serialVersionUID = 1L;

    public RecordTooLargeException(int length, int maxRecordSize) {
        super("record of " + length + " bytes exceeds max_record_size of " + maxRecordSize
                + " bytes; nothing was written");
    }

    /** For a record whose length is not known, only that it is too large (a codec's encoding outgrew the limit). */
    public RecordTooLargeException(String message) {
        super(message);
    }
}
