package dev.commitlog.raft;

import java.util.Objects;

/**
 * How a {@link RaftCommitLog} bounds what lagging groups keep: immutable, built with
 * {@link #builder()}. Without a bound (the default) a group that never truncates its log prefix
 * keeps every segment of the shared log from its oldest live entry on.
 *
 * <pre>{@code
 * RaftCommitLog raftLog = RaftCommitLog.open(config, RaftLogOptions.builder()
 *         .maxRetainedBytes(4L << 30)                                    // 4 GiB of log at most
 *         .laggingGroupListener((key, position, bytes) -> nodes.get(key).snapshot(null))
 *         .build());
 * }</pre>
 */
public final class RaftLogOptions {
    /** No bound: lagging groups keep what they need. */
    public static final long UNBOUNDED = Long.MAX_VALUE;
    /** The least bound, in segments: the storage acts at half of it and discards whole segments. */
    public static final int MIN_RETAINED_SEGMENTS = 8;

    private final long maxRetainedBytes;
    private final long maxRewriteBytes;
    private final LaggingGroupListener laggingGroupListener;

    private RaftLogOptions(long maxRetainedBytes, long maxRewriteBytes, LaggingGroupListener laggingGroupListener) {
        this.maxRetainedBytes = maxRetainedBytes;
        this.maxRewriteBytes = maxRewriteBytes;
        this.laggingGroupListener = laggingGroupListener;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** No bound, no listener. */
    public static RaftLogOptions defaults() {
        return builder().build();
    }

    /** The log bytes the groups may keep, from the oldest entry any of them needs to the durable end; {@link #UNBOUNDED} if none. */
    public long maxRetainedBytes() {
        return maxRetainedBytes;
    }

    /** The most bytes of live records one lagging group may have for the storage to rewrite them forward; 0: never. */
    public long maxRewriteBytes() {
        return maxRewriteBytes;
    }

    /** Null when none is registered. */
    public LaggingGroupListener laggingGroupListener() {
        return laggingGroupListener;
    }

    /** Refuses a bound smaller than {@link #MIN_RETAINED_SEGMENTS} segments of {@code segmentSize}. */
    void checkAgainst(int segmentSize, Object directory) {
        if (maxRetainedBytes != UNBOUNDED && maxRetainedBytes < (long) MIN_RETAINED_SEGMENTS * segmentSize) {
            throw new IllegalArgumentException("maxRetainedBytes " + maxRetainedBytes + " is below " + MIN_RETAINED_SEGMENTS
                    + " segments of commit log " + directory + " (commitlog_segment_size " + segmentSize + ", so at least "
                    + (long) MIN_RETAINED_SEGMENTS * segmentSize + "): the storage acts at half the bound and discards whole segments");
        }
    }

    public static final class Builder {
        private long maxRetainedBytes = UNBOUNDED;
        private long maxRewriteBytes = -1;
        private LaggingGroupListener laggingGroupListener;

        private Builder() {
        }

        /**
         * Bounds the log bytes that groups keep. Past half of it, the groups whose oldest entry lies
         * further back are rewritten forward when their live records are small enough
         * ({@link #maxRewriteBytes}), and the rest are named to the {@link #laggingGroupListener}.
         * At least {@link #MIN_RETAINED_SEGMENTS} segments (checked when the log is opened).
         *
         * @throws IllegalArgumentException if {@code bytes} is not positive
         */
        public Builder maxRetainedBytes(long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("maxRetainedBytes must be positive (bytes, at least " + MIN_RETAINED_SEGMENTS
                        + " segments), got " + bytes);
            }
            this.maxRetainedBytes = bytes;
            return this;
        }

        /**
         * The most bytes of live records a lagging group may have to be rewritten forward rather
         * than named to the listener; 0 never rewrites. Default: a sixteenth of
         * {@link #maxRetainedBytes}.
         *
         * @throws IllegalArgumentException if {@code bytes} is negative
         */
        public Builder maxRewriteBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("maxRewriteBytes must be 0 (never rewrite) or positive, got " + bytes);
            }
            this.maxRewriteBytes = bytes;
            return this;
        }

        public Builder laggingGroupListener(LaggingGroupListener listener) {
            this.laggingGroupListener = Objects.requireNonNull(listener, "laggingGroupListener");
            return this;
        }

        /**
         * @throws IllegalArgumentException if {@code maxRewriteBytes} exceeds {@code maxRetainedBytes}
         */
        public RaftLogOptions build() {
            if (maxRewriteBytes > maxRetainedBytes) {
                throw new IllegalArgumentException("maxRewriteBytes " + maxRewriteBytes + " exceeds maxRetainedBytes " + maxRetainedBytes
                        + ": a rewrite may copy at most what the bound keeps");
            }
            long rewrite = maxRewriteBytes >= 0 ? maxRewriteBytes : maxRetainedBytes == UNBOUNDED ? 0 : maxRetainedBytes / 16;
            return new RaftLogOptions(maxRetainedBytes, rewrite, laggingGroupListener);
        }
    }
}
