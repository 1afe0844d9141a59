/**
 * Completions of asynchronous appends: one ring of pending appends per submitting thread, and the
 * completion thread that tells each callback or future, in position order, once the flush that
 * covers its record returned ({@link dev.commitlog.async.AsyncCompletions}). Internal.
 */
package dev.commitlog.async;
