/**
 * Typed records: a {@link dev.commitlog.codec.RecordCodec} (or a Chronicle
 * {@link dev.commitlog.codec.BytesRecordCodec}) encodes a record straight into the mapped segment
 * and decodes it on replay, so that {@code CommitLog.append(T, codec)}, {@code replay},
 * {@code tailer} and the asynchronous appends ({@link dev.commitlog.codec.TypedAppendCallback})
 * work with the node's own types and copy nothing.
 */
package dev.commitlog.codec;
