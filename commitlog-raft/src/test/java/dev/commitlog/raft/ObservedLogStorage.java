package dev.commitlog.raft;

import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import java.util.List;

/**
 * A JRaft {@code LogStorage} that passes every call to another and tells a
 * {@link LogStorageObserver} about each mutation; each mutation also passes a {@link Gate} on its
 * way in and on its way out, which a power-loss test closes to freeze the node (see
 * {@link PowerSwitch}). A closed gate makes the call fail as a storage error does (a short append
 * count, false), and the observer hears nothing of its end: whatever the call did is what the
 * crash image holds, not something JRaft was told.
 */
final class ObservedLogStorage implements LogStorage {
    /** Whether a mutation may go on; it may block (a frozen node) before it answers. */
    @FunctionalInterface
    interface Gate {
        Gate OPEN = () -> true;

        boolean pass();
    }

    private final LogStorage delegate;
    private final LogStorageObserver observer;
    private final Gate gate;

    ObservedLogStorage(LogStorage delegate, LogStorageObserver observer, Gate gate) {
        this.delegate = delegate;
        this.observer = observer;
        this.gate = gate;
    }

    LogStorage delegate() {
        return delegate;
    }

    @Override
    @SuppressWarnings("deprecation") // getTerm: JRaft's log manager still reads terms through it
    public boolean init(LogStorageOptions opts) {
        if (!delegate.init(opts)) {
            return false;
        }
        long first = delegate.getFirstLogIndex();
        long last = delegate.getLastLogIndex();
        long[] terms = new long[(int) Math.max(0, last - first + 1)];
        for (int i = 0; i < terms.length; i++) {
            terms[i] = delegate.getTerm(first + i);
        }
        observer.loaded(first, terms);
        return true;
    }

    @Override
    public void shutdown() {
        delegate.shutdown();
    }

    @Override
    public long getFirstLogIndex() {
        return delegate.getFirstLogIndex();
    }

    @Override
    public long getLastLogIndex() {
        return delegate.getLastLogIndex();
    }

    @Override
    public LogEntry getEntry(long index) {
        return delegate.getEntry(index);
    }

    @Override
    @Deprecated
    @SuppressWarnings("deprecation")
    public long getTerm(long index) {
        return delegate.getTerm(index);
    }

    @Override
    public boolean appendEntry(LogEntry entry) {
        return appendEntries(List.of(entry)) == 1;
    }

    @Override
    public int appendEntries(List<LogEntry> entries) {
        if (entries == null || entries.isEmpty()) {
            return delegate.appendEntries(entries);
        }
        long[] terms = new long[entries.size()];
        for (int i = 0; i < terms.length; i++) {
            terms[i] = entries.get(i).getId().getTerm();
        }
        StorageCall call = StorageCall.append(entries.get(0).getId().getIndex(), terms);
        if (!gate.pass()) {
            return 0;
        }
        observer.beginning(call);
        int appended = delegate.appendEntries(entries);
        if (!gate.pass()) {
            return 0;
        }
        observer.done(call, appended);
        return appended;
    }

    @Override
    public boolean truncatePrefix(long firstIndexKept) {
        return marker(StorageCall.marker(StorageCall.Kind.TRUNCATE_PREFIX, firstIndexKept));
    }

    @Override
    public boolean truncateSuffix(long lastIndexKept) {
        return marker(StorageCall.marker(StorageCall.Kind.TRUNCATE_SUFFIX, lastIndexKept));
    }

    @Override
    public boolean reset(long nextLogIndex) {
        return marker(StorageCall.marker(StorageCall.Kind.RESET, nextLogIndex));
    }

    private boolean marker(StorageCall call) {
        if (!gate.pass()) {
            return false;
        }
        observer.beginning(call);
        boolean done = switch (call.kind()) {
            case TRUNCATE_PREFIX -> delegate.truncatePrefix(call.index());
            case TRUNCATE_SUFFIX -> delegate.truncateSuffix(call.index());
            case RESET -> delegate.reset(call.index());
            case APPEND -> throw new IllegalArgumentException(call.toString());
        };
        if (!gate.pass()) {
            return false;
        }
        observer.done(call, done ? 1 : 0);
        return done;
    }

    @Override
    public String toString() {
        return "observed " + delegate;
    }
}
