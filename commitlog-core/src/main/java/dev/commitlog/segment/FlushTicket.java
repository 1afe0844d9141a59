package dev.commitlog.segment;

/**
 * One flush in the pipeline: a byte range of one segment (and the header, when this flush rewrites
 * the durable mark), claimed in log order by the flush-role holder, written and synced by the
 * thread that claimed it without the role, and published, in claim order, by whoever holds the
 * role once it is done. The syncer keeps a small ring of them and reuses each after it is published,
 * so a flush allocates nothing.
 *
 * <p>Fields are written by the claimer (under the role) and by the owner before the volatile
 * {@link #state} store that hands the ticket to the publisher.
 */
public final class FlushTicket {
    static final int FREE = 0;
    static final int RUNNING = 1;
    static final int DONE = 2;
    /** The flush failed: it will never be published, and its bytes are not durable. */
    static final int FAILED = 3;

    long sequence;
    int lane;
    Segment segment;
    int headerLength;
    int from;
    int to;
    int records;
    long elapsedNanos;
    /** Another flush was running when this one was claimed. */
    boolean overlapped;
    volatile int state = FREE;

    @Override
    public String toString() {
        return "flush #" + sequence + " of " + segment + " [" + from + ", " + to + ") on lane " + lane;
    }
}
