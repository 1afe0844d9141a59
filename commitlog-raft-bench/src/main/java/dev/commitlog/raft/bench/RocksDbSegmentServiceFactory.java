package dev.commitlog.raft.bench;

import com.alipay.sofa.jraft.core.DefaultJRaftServiceFactory;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import com.alipay.sofa.jraft.storage.log.RocksDBSegmentLogStorage;

/**
 * JRaft's default services with {@link RocksDBSegmentLogStorage} as the log storage, one per node
 * (JRaft asks the factory once per node), built by its builder with no setting changed. JRaft
 * 1.4.1's defaults are
 * <ul>
 *   <li>value size threshold 4,096 B ({@code jraft.log_storage.segment.value.threshold.bytes}): an
 *       entry whose encoding is shorter is stored in the node's RocksDB as {@code RocksDBLogStorage}
 *       stores it; a longer one goes to a segment file, and RocksDB keeps its 16-byte location;</li>
 *   <li>segment files of 1 GiB ({@code jraft.log_storage.segment.max.size.bytes}), memory-mapped,
 *       created sparse by the mapping;</li>
 *   <li>2 blank segments preallocated ahead of the one in use, by a thread of each storage, so a node
 *       holds three segment files from its first append;</li>
 *   <li>the last 3 segments kept mapped;</li>
 *   <li>a checkpoint (the last segment's committed position) every 5,000 ms
 *       ({@code jraft.log_storage.segment.checkpoint.interval.ms}), by a thread of each storage;</li>
 *   <li>a write pool per storage for segment writes and syncs: cores to 3 x cores threads.</li>
 * </ul>
 * It keeps JRaft's RocksDB options (those {@link RocksDbWalSyncs} registers for
 * {@code RocksDBLogStorage}, which the subclass reads too), so its WAL syncs are counted with
 * RocksDB's; the syncs of its segment files are not.
 */
final class RocksDbSegmentServiceFactory extends DefaultJRaftServiceFactory {
    @Override
    public LogStorage createLogStorage(String uri, RaftOptions raftOptions) {
        return RocksDBSegmentLogStorage.builder(uri, raftOptions).build();
    }
}
