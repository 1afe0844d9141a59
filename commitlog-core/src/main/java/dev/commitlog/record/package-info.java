/**
 * Record framing: the byte layout of a frame ({@link dev.commitlog.record.RecordDescriptor}) and
 * its checksum ({@link dev.commitlog.record.FrameChecksum}). Nothing here knows about files.
 */
package dev.commitlog.record;
