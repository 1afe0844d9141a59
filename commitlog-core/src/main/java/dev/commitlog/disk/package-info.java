/**
 * The default file layer over a real disk ({@link dev.commitlog.disk.MappedStorageLayer}): writers'
 * memory, reused from segment to segment and flushed with {@code pwrite} (through the page cache,
 * or with {@code O_DIRECT}: {@code commitlog_disk_access_mode}) and {@code fdatasync};
 * read-only mappings for readers; how new segment files get their space; the zero-fill of a
 * recovered tail; the directory lock, and the JVM flags Chronicle needs
 * ({@link dev.commitlog.disk.ChronicleJvmFlags}). Internal.
 */
package dev.commitlog.disk;
