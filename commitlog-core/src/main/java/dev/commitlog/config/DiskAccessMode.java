package dev.commitlog.config;

/**
 * How a flush writes segment data to the file ({@code commitlog_disk_access_mode}), Cassandra
 * 5.0's setting. YAML names: {@code standard | direct}. Either way the flush ends with
 * {@code fdatasync}, and an append is acknowledged only after it: a direct write can sit in the
 * device's volatile cache, and the file's metadata is not committed without it (Cassandra's first
 * direct mode never forced its flush, CASSANDRA-20692).
 */
public enum DiskAccessMode {
    /** {@code pwrite} of exactly the new bytes through the page cache, then {@code fdatasync}. */
    STANDARD,
    /**
     * {@code O_DIRECT}: the new bytes' whole 4 KiB blocks, written from the writer's memory
     * without the page-cache copy (the last block through a copy of its own, zeros past the new
     * bytes), then {@code fdatasync}. Readers of the newest data (tailers, {@code readAt}) read it
     * from the device rather than the page cache.
     */
    DIRECT
}
