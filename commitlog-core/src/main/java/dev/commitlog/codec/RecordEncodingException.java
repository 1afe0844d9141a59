package dev.commitlog.codec;

/**
 * A {@link RecordCodec} failed to encode a record, or broke its contract (wrote past its bound,
 * moved the target's limit). The log aborted the claim: nothing was logged, and later appends go on
 * as before. The message names the codec; the cause, if any, is the codec's own exception.
 */
public class RecordEncodingException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public RecordEncodingException(String message, Throwable cause) {
        super(message, cause);
    }
}
