package dev.commitlog.segment;

/** A segment header that cannot be trusted; the message says why. */
public final class SegmentHeaderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SegmentHeaderException(String reason) {
        super(reason);
    }
}
