package dev.commitlog.raft;

import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.conf.ConfigurationEntry;
import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.entity.codec.LogEntryDecoder;
import com.alipay.sofa.jraft.entity.codec.LogEntryEncoder;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import dev.commitlog.Ack;
import dev.commitlog.CommitLog;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SOFAJRaft's {@link LogStorage} over a {@link RaftCommitLog} that many groups share.
 *
 * <p>Entries and truncations are records of the shared log (layout in {@link RaftRecord}); the
 * storage keeps only an in-memory map from log index to log position, rebuilt at {@link #init} by
 * replaying this group's records in log order. Truncations are marker records, so the order of the
 * log decides what survives a restart: an entry appended after a marker is live, one before it is
 * cut. Every mutation returns once its records are durable (see {@link RaftCommitLog#ackFor}).
 *
 * <p>Mutations are serialized by {@code writeMutex} (JRaft's log manager issues them from one
 * thread); readers take the read lock of the index only, never waiting for a flush.
 */
public final class CommitLogLogStorage implements LogStorage {
    private static final Logger LOG = LoggerFactory.getLogger(CommitLogLogStorage.class);

    private final RaftCommitLog shared;
    private final CommitLog log;
    private final String groupKey;
    private final byte[] key;
    private final Ack ack;
    private final Object writeMutex = new Object();
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private PositionIndex index = new PositionIndex();
    private LogEntryEncoder encoder;
    private LogEntryDecoder decoder;
    private volatile boolean initialized;

    /**
     * @throws IllegalArgumentException if {@code raftOptions} asks for sync and the log syncs periodically
     */
    public CommitLogLogStorage(RaftCommitLog shared, String groupKey, RaftOptions raftOptions) {
        this.shared = Objects.requireNonNull(shared, "shared");
        this.log = shared.log();
        this.groupKey = Objects.requireNonNull(groupKey, "groupKey");
        this.key = RaftRecord.keyBytes(groupKey);
        this.ack = shared.ackFor(raftOptions);
    }

    public String groupKey() {
        return groupKey;
    }

    @Override
    public boolean init(LogStorageOptions opts) {
        Objects.requireNonNull(opts, "opts");
        var codecs = opts.getLogEntryCodecFactory() != null ? opts.getLogEntryCodecFactory() : LogEntryV2CodecFactory.getInstance();
        synchronized (writeMutex) {
            this.encoder = codecs.encoder();
            this.decoder = codecs.decoder();
            PositionIndex rebuilt = new PositionIndex();
            TreeMap<Long, Long> configurations = new TreeMap<>();
            try {
                log.replay(0, (position, record) -> {
                    if (RaftRecord.isGroup(record, key)) {
                        apply(rebuilt, configurations, position, record);
                    }
                });
            } catch (RuntimeException e) {
                LOG.error("replay of Raft log storage {} failed", groupKey, e);
                return false;
            }
            lock.writeLock().lock();
            try {
                this.index = rebuilt;
            } finally {
                lock.writeLock().unlock();
            }
            ConfigurationManager confManager = opts.getConfigurationManager();
            if (confManager != null) {
                for (Map.Entry<Long, Long> configuration : configurations.entrySet()) {
                    LogEntry entry = read(configuration.getValue());
                    if (entry != null) {
                        confManager.add(configurationOf(entry));
                    }
                }
            }
            initialized = true;
            return true;
        }
    }

    /** Replay: one record of this group, in log order. Configuration positions are cut by the same markers. */
    private void apply(PositionIndex target, TreeMap<Long, Long> configurations, long position, ByteBuffer record) {
        long logIndex = RaftRecord.index(record, key);
        switch (RaftRecord.kind(record)) {
            case RaftRecord.ENTRY -> {
                if (target.accepts(logIndex)) {
                    target.put(logIndex, position);
                    noteConfiguration(configurations, logIndex, position, record);
                }
            }
            case RaftRecord.TRUNCATE_PREFIX -> {
                target.truncatePrefix(logIndex);
                configurations.headMap(logIndex).clear();
            }
            case RaftRecord.TRUNCATE_SUFFIX -> {
                target.truncateSuffix(logIndex);
                configurations.tailMap(logIndex, false).clear();
            }
            case RaftRecord.RESET -> {
                target.reset(logIndex);
                configurations.clear();
                target.put(logIndex, position);
                noteConfiguration(configurations, logIndex, position, record);
            }
            default -> LOG.warn("Raft log storage {}: record of unknown kind {} at log position {} ignored", groupKey,
                    RaftRecord.kind(record), position);
        }
    }

    private void noteConfiguration(TreeMap<Long, Long> configurations, long logIndex, long position, ByteBuffer record) {
        if (RaftRecord.type(record, key) == EntryType.ENTRY_TYPE_CONFIGURATION_VALUE) {
            configurations.put(logIndex, position);
        } else {
            configurations.remove(logIndex); // an entry rewritten at the same index replaces it
        }
    }

    private static ConfigurationEntry configurationOf(LogEntry entry) {
        ConfigurationEntry conf = new ConfigurationEntry();
        conf.setId(new LogId(entry.getId().getIndex(), entry.getId().getTerm()));
        conf.setConf(new Configuration(entry.getPeers(), entry.getLearners()));
        if (entry.getOldPeers() != null) {
            conf.setOldConf(new Configuration(entry.getOldPeers(), entry.getOldLearners()));
        }
        return conf;
    }

    @Override
    public void shutdown() {
        initialized = false; // the shared log stays open: other groups use it
    }

    @Override
    public long getFirstLogIndex() {
        lock.readLock().lock();
        try {
            return index.first();
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public long getLastLogIndex() {
        lock.readLock().lock();
        try {
            return index.last();
        } finally {
            lock.readLock().unlock();
        }
    }

    private long positionOf(long logIndex) {
        lock.readLock().lock();
        try {
            return index.get(logIndex);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public LogEntry getEntry(long logIndex) {
        long position = positionOf(logIndex);
        return position < 0 ? null : read(position);
    }

    private LogEntry read(long position) {
        byte[] record = log.readAt(position);
        int header = RaftRecord.headerLength(key);
        LogEntry entry = decoder.decode(Arrays.copyOfRange(record, header, record.length));
        if (entry == null) {
            throw new IllegalStateException("Raft log storage " + groupKey + ": the entry at log position " + position
                    + " does not decode");
        }
        if (entry.isCorrupted()) {
            throw new IllegalStateException("Raft log storage " + groupKey + ": the entry at log position " + position
                    + " fails its checksum");
        }
        return entry;
    }

    /** Reads the term from the record header; deprecated in JRaft (its log manager reads entries) but still part of the contract. */
    @Override
    @Deprecated
    public long getTerm(long logIndex) {
        long position = positionOf(logIndex);
        if (position < 0) {
            return 0;
        }
        long[] term = new long[1];
        log.readAt(position, (at, record) -> term[0] = RaftRecord.term(record, key));
        return term[0];
    }

    @Override
    public boolean appendEntry(LogEntry entry) {
        return appendEntries(List.of(entry)) == 1;
    }

    /**
     * Appends the entries in batches of up to {@link CommitLog#MAX_BATCH} records, each batch
     * durable before the index shows it. Stops at the first entry below the first index kept.
     */
    @Override
    public int appendEntries(List<LogEntry> entries) {
        if (entries == null || entries.isEmpty()) {
            return 0;
        }
        checkInitialized();
        synchronized (writeMutex) {
            int done = 0;
            long[] positions = new long[CommitLog.MAX_BATCH];
            while (done < entries.size()) {
                int count = Math.min(CommitLog.MAX_BATCH, entries.size() - done);
                byte[][] records = new byte[count][];
                int accepted = 0;
                for (; accepted < count; accepted++) {
                    LogEntry entry = entries.get(done + accepted);
                    if (!acceptsUnderMutex(entry.getId().getIndex())) {
                        break;
                    }
                    records[accepted] = encode(RaftRecord.ENTRY, entry);
                }
                if (accepted == 0) {
                    LOG.warn("Raft log storage {}: entry {} is below the first index {}, not appended", groupKey,
                            entries.get(done).getId(), getFirstLogIndex());
                    return done;
                }
                byte[][] batch = accepted == count ? records : Arrays.copyOf(records, accepted);
                log.appendBatch(batch, positions, ack);
                lock.writeLock().lock();
                try {
                    for (int i = 0; i < accepted; i++) {
                        index.put(entries.get(done + i).getId().getIndex(), positions[i]);
                    }
                } finally {
                    lock.writeLock().unlock();
                }
                done += accepted;
                if (accepted < count) {
                    return done;
                }
            }
            return done;
        }
    }

    private boolean acceptsUnderMutex(long logIndex) {
        lock.readLock().lock();
        try {
            return index.accepts(logIndex);
        } finally {
            lock.readLock().unlock();
        }
    }

    private byte[] encode(byte kind, LogEntry entry) {
        LogId id = entry.getId();
        int type = entry.getType() == null ? 0 : entry.getType().getNumber();
        return RaftRecord.encode(kind, key, id.getIndex(), id.getTerm(), type, encoder.encode(entry));
    }

    @Override
    public boolean truncatePrefix(long firstIndexKept) {
        checkInitialized();
        synchronized (writeMutex) {
            writeMarker(RaftRecord.marker(RaftRecord.TRUNCATE_PREFIX, key, firstIndexKept));
            lock.writeLock().lock();
            try {
                index.truncatePrefix(firstIndexKept);
            } finally {
                lock.writeLock().unlock();
            }
            return true;
        }
    }

    @Override
    public boolean truncateSuffix(long lastIndexKept) {
        checkInitialized();
        synchronized (writeMutex) {
            writeMarker(RaftRecord.marker(RaftRecord.TRUNCATE_SUFFIX, key, lastIndexKept));
            lock.writeLock().lock();
            try {
                index.truncateSuffix(lastIndexKept);
            } finally {
                lock.writeLock().unlock();
            }
            return true;
        }
    }

    /**
     * Drops every entry and keeps one at {@code nextLogIndex}: the entry that was there, or a no-op
     * of term 0 (as JRaft's RocksDB storage does). Marker and entry are one record, so a restart
     * sees both or neither.
     */
    @Override
    public boolean reset(long nextLogIndex) {
        if (nextLogIndex <= 0) {
            throw new IllegalArgumentException("Invalid next log index: " + nextLogIndex);
        }
        checkInitialized();
        synchronized (writeMutex) {
            LogEntry entry = getEntry(nextLogIndex);
            if (entry == null) {
                entry = new LogEntry(EntryType.ENTRY_TYPE_NO_OP);
                entry.setId(new LogId(nextLogIndex, 0));
            }
            long position = writeMarker(encode(RaftRecord.RESET, entry));
            lock.writeLock().lock();
            try {
                index.reset(nextLogIndex);
                index.put(nextLogIndex, position);
            } finally {
                lock.writeLock().unlock();
            }
            return true;
        }
    }

    private long writeMarker(byte[] record) {
        return log.append(record, 0, record.length, ack);
    }

    private void checkInitialized() {
        if (!initialized) {
            throw new IllegalStateException("Raft log storage " + groupKey + " is not initialized (or was shut down)");
        }
    }

    @Override
    public String toString() {
        return "CommitLogLogStorage[" + groupKey + " on " + log.config().directory() + "]";
    }

    RaftCommitLog shared() {
        return shared;
    }
}
