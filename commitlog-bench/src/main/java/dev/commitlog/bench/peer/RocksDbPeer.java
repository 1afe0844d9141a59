package dev.commitlog.bench.peer;

import dev.commitlog.bench.sut.Appender;
import dev.commitlog.bench.sut.Contender;
import dev.commitlog.bench.sut.FlushCounters;
import dev.commitlog.bench.sut.SystemUnderTest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.rocksdb.CompressionType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * RocksDB with {@code WriteOptions.setSync(true)}: every put returns after the WAL is synced. Its
 * leader/follower write groups (one writer syncs the WAL for every writer queued behind it, with
 * no delay window) are the strongest widely deployed group commit, so it is the peer the durable
 * modes must beat.
 *
 * <p>Settings: defaults except {@code create_if_missing} and compression off (the records are
 * random bytes; compression would only burn CPU). Each put has a unique 16-byte key (writer
 * thread index, then a per-thread counter, both big-endian) and the record as its value. Flush
 * counts come from RocksDB's always-on internal DB stats ({@code rocksdb.dbstats}: WAL syncs and
 * writes with WAL), so no {@code Statistics} object adds overhead to the put path.
 */
public final class RocksDbPeer implements Contender {

    public static final String NAME = "rocksdb";

    static {
        RocksDB.loadLibrary();   // extracts and loads the JNI library once per JVM
    }

    @Override
    public String system() {
        return NAME;
    }

    @Override
    public String settings() {
        return "rocksdb: RocksDB " + RocksDB.rocksdbVersion() + " defaults, compression off, WriteOptions.sync=true, 16-byte unique keys";
    }

    @Override
    public boolean durable() {
        return true;
    }

    @Override
    public SystemUnderTest open(Path directory, int recordBytes) throws IOException {
        Options options = new Options()
                .setCreateIfMissing(true)
                .setCompressionType(CompressionType.NO_COMPRESSION);
        try {
            return new Instance(options, RocksDB.open(options, directory.toString()));
        } catch (RocksDBException e) {
            options.close();
            throw new IOException("cannot open RocksDB in " + directory + ": " + e.getMessage(), e);
        }
    }

    private static final class Instance implements SystemUnderTest {
        private final Options options;
        private final RocksDB db;
        private final List<WriteOptions> writeOptions = new CopyOnWriteArrayList<>();

        Instance(Options options, RocksDB db) {
            this.options = options;
            this.db = db;
        }

        @Override
        public Appender newAppender(int threadIndex) {
            WriteOptions sync = new WriteOptions().setSync(true);
            writeOptions.add(sync);   // closed with the database, after every writer stopped
            byte[] key = new byte[16];
            putLong(key, 0, threadIndex);
            return new Appender() {
                private long counter;

                @Override
                public void append(byte[] record) throws IOException {
                    putLong(key, 8, counter++);
                    try {
                        db.put(sync, key, record);
                    } catch (RocksDBException e) {
                        throw new IOException("RocksDB put failed: " + e.getMessage(), e);
                    }
                }
            };
        }

        @Override
        public FlushCounters flushCounters() {
            try {
                Map<String, String> stats = db.getMapProperty("rocksdb.dbstats");
                String syncs = stats.get("db.wal_syncs");
                String writes = stats.get("db.user_writes_with_wal");
                if (syncs == null || writes == null) {
                    return FlushCounters.UNKNOWN;
                }
                return new FlushCounters(Long.parseLong(syncs), Long.parseLong(writes));
            } catch (RocksDBException | NumberFormatException e) {
                return FlushCounters.UNKNOWN;
            }
        }

        @Override
        public void close() {
            db.close();
            writeOptions.forEach(WriteOptions::close);
            options.close();
        }
    }

    private static void putLong(byte[] into, int offset, long value) {
        for (int i = 7; i >= 0; i--) {
            into[offset + i] = (byte) value;
            value >>>= 8;
        }
    }
}
