package dev.commitlog.sync;

/** The sync thread flushes as soon as there is unflushed data (Batch without leader/follower). */
final class FlushWhenData implements FlushSchedule {
    @Override
    public void awaitWork(SyncEngine engine) {
        engine.awaitData();
    }
}
