package dev.commitlog.raft.bench;

import com.alipay.sofa.jraft.storage.impl.RocksDBLogStorage;
import com.alipay.sofa.jraft.util.StorageOptionsFactory;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.TickerType;

/**
 * Counts the WAL syncs of every {@code RocksDBLogStorage} in this JVM: RocksDB's
 * {@code WAL_FILE_SYNCED} ticker, one per fsync/fdatasync of a write-ahead log (a synced write
 * group; writers that join a leader's group share its sync). JRaft copies the DBOptions registered
 * for {@code RocksDBLogStorage} into each DB it opens; the copy shares the native statistics object,
 * so one counter sees every group on every host. That holds only with
 * {@code RaftOptions.openStatistics} off: on (JRaft's default) each storage sets a statistics object
 * of its own over the copy. Memtable flushes and compactions sync SST files too; they are not WAL
 * syncs and not counted (nor are the commit log's segment-creation syncs).
 */
final class RocksDbWalSyncs {
    private static Statistics statistics;

    private RocksDbWalSyncs() {
    }

    /**
     * Registers JRaft's default DBOptions plus the statistics with JRaft's options factory; must run
     * before the first RocksDB log storage opens. Idempotent.
     */
    static synchronized void install() {
        if (statistics != null) {
            return;
        }
        RocksDB.loadLibrary();
        Statistics stats = new Statistics();
        // The level of the statistics JRaft's default (openStatistics) gives each RocksDB.
        stats.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
        DBOptions options = StorageOptionsFactory.getDefaultRocksDBOptions();
        options.setStatistics(stats);
        StorageOptionsFactory.registerRocksDBOptions(RocksDBLogStorage.class, options);
        statistics = stats;
    }

    /** WAL syncs since {@link #install()}, over every RocksDB log storage of the JVM. */
    static synchronized long count() {
        if (statistics == null) {
            throw new IllegalStateException("RocksDbWalSyncs.install() was not called before the RocksDB storages opened");
        }
        return statistics.getTickerCount(TickerType.WAL_FILE_SYNCED);
    }
}
