package dev.commitlog.raft.bench;

import com.alipay.sofa.jraft.JRaftServiceFactory;
import com.alipay.sofa.jraft.entity.codec.LogEntryCodecFactory;
import com.alipay.sofa.jraft.option.NodeOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import com.alipay.sofa.jraft.storage.RaftMetaStorage;
import com.alipay.sofa.jraft.storage.SnapshotStorage;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A contender's service factory that also remembers the log storage it made for each log URI, so
 * that the benchmark can ask a node's storage itself what it holds (its last index) before a
 * restart and after it. Everything else is the contender's factory unchanged.
 */
final class RecordingServiceFactory implements JRaftServiceFactory {
    private final JRaftServiceFactory delegate;
    private final Map<String, LogStorage> storages = new ConcurrentHashMap<>();

    RecordingServiceFactory(JRaftServiceFactory delegate) {
        this.delegate = delegate;
    }

    /** The storage most recently made for {@code uri}, or null if none was. */
    LogStorage storage(String uri) {
        return storages.get(uri);
    }

    @Override
    public LogStorage createLogStorage(String uri, RaftOptions raftOptions) {
        LogStorage storage = delegate.createLogStorage(uri, raftOptions);
        storages.put(uri, storage);
        return storage;
    }

    @Override
    public SnapshotStorage createSnapshotStorage(NodeOptions nodeOptions) {
        return delegate.createSnapshotStorage(nodeOptions);
    }

    @Override
    public RaftMetaStorage createRaftMetaStorage(String uri, RaftOptions raftOptions) {
        return delegate.createRaftMetaStorage(uri, raftOptions);
    }

    @Override
    public LogEntryCodecFactory createLogEntryCodecFactory() {
        return delegate.createLogEntryCodecFactory();
    }
}
