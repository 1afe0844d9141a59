/**
 * The one segment writer every sync mode shares: space claimed by CAS in the mapped segment
 * ({@link dev.commitlog.segment.SegmentWriter}, {@link dev.commitlog.segment.Segment}), segments
 * prepared ahead by the allocator thread, and the flush of what is published, segment by segment,
 * with the durable position it moves ({@link dev.commitlog.segment.SegmentSyncer}). Internal.
 */
package dev.commitlog.segment;
