/**
 * The default file layer over a real disk: segment files mapped with Chronicle Bytes and flushed
 * with {@code pwrite} and {@code fdatasync} ({@link dev.commitlog.disk.MappedStorageLayer}), the
 * zero-fill of new segments, the directory lock, and the JVM flags Chronicle needs
 * ({@link dev.commitlog.disk.ChronicleJvmFlags}). Internal.
 */
package dev.commitlog.disk;
