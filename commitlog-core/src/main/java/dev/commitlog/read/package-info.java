/**
 * Reading single records and following the log while it is written: random reads at known
 * positions ({@link dev.commitlog.read.RecordReader}) and the tailer
 * ({@link dev.commitlog.read.SegmentTailer}), both through the log's one table of read-only
 * mappings ({@link dev.commitlog.read.SegmentMappings}), never the writer's. Internal.
 */
package dev.commitlog.read;
