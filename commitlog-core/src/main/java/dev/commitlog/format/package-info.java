/**
 * The on-disk format in one place, a leaf that imports nothing of the log: the frame layout
 * ({@link dev.commitlog.format.RecordDescriptor}) and its checksum
 * ({@link dev.commitlog.format.FrameChecksum}), the segment layout and file naming
 * ({@link dev.commitlog.format.SegmentDescriptor}). docs/format.md describes the same bytes. Internal.
 */
package dev.commitlog.format;
