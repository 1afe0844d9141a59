package dev.commitlog.sync;

/**
 * The sync thread flushes only when an appender asked ({@link LeaderFollower}): data nobody asked
 * for belongs to the appender that is flushing it inline.
 */
final class FlushWhenAsked implements FlushSchedule {
    @Override
    public void awaitWork(SyncEngine engine) {
        engine.awaitRequest();
    }
}
