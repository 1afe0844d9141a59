package dev.commitlog;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.disk.ChronicleJvmFlags;
import dev.commitlog.disk.DirectoryLock;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.instrument.CommitLogJmx;
import dev.commitlog.io.StorageLayer;
import dev.commitlog.replay.LogRecovery;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What {@code CommitLog.open} does before the log's parts are made: the JVM check, the directory, its lock, JMX, recovery. */
final class LogOpening {
    /** Damage is reported under the log's own logger name, the one operators configure. */
    private static final Logger LOG = LoggerFactory.getLogger("dev.commitlog.CommitLog");
    /** Where damage goes when the embedding node gives no listener: a warning with everything an operator needs. */
    static final CorruptionListener LOGGING_LISTENER = (file, offset, position, reason, action) ->
            LOG.warn("commit log damage in {} at offset {} (log position {}): {}; {}", file, offset, position, reason, action);

    private LogOpening() {
    }

    /** What opening found and holds before the log's parts are made; {@link #abandon} lets go of it if they cannot be. */
    record Opened(DirectoryLock lock, StorageLayer storage, LogRecovery.Recovered recovered, CorruptionListener listener,
                  CommitLogJmx jmx) {
        /** Unregisters the JMX bean and releases the lock, leaving no trace of the failed open. */
        void abandon() throws IOException {
            if (jmx != null) {
                jmx.close();
            }
            lock.closeLeavingNoTrace();
        }
    }

    /**
     * Checks the compression and encryption settings (before anything is touched), checks the JVM flags (before any file is made: without them Chronicle fails half-way through),
     * creates and locks the directory, registers the JMX bean, and recovers what is there.
     */
    static Opened prepare(CommitLogConfig config, CommitLogOptions options) throws IOException {
        SectionSettings.check(config, options.keyProvider());
        ChronicleJvmFlags.check();
        CorruptionListener listener = options.corruptionListener() == null ? LOGGING_LISTENER : options.corruptionListener();
        Path directory = config.directory();
        createDirectory(directory);
        DirectoryLock lock = DirectoryLock.acquire(directory);
        CommitLogJmx jmx = null;
        try {
            jmx = options.jmx() ? registerJmx(config, options) : null; // first: a name clash fails before anything starts
            StorageLayer storage = SectionSettings.storage(config, storageFor(config, options.storage()), options.keyProvider());
            LogRecovery.Recovered recovered = LogRecovery.recover(directory, storage, config.segmentSize(),
                    config.filePermissions(), config.replayPolicy(), listener);
            return new Opened(lock, storage, recovered, listener, jmx);
        } catch (IOException | RuntimeException | Error e) {
            new Opened(lock, null, null, listener, jmx).abandon();
            throw e;
        }
    }

    /**
     * The file layer the log runs over: the production layer made to write as
     * {@code commitlog_disk_access_mode} says and to make new files as the sync mode suits; a
     * layer of the embedder's own (a test's simulated disk) as given, deciding for itself.
     */
    static StorageLayer storageFor(CommitLogConfig config, StorageLayer given) {
        return given instanceof MappedStorageLayer files
                ? files.withAccessMode(config.diskAccessMode()).withSyncMode(config.syncMode()) : given;
    }

    /** Creates the log directory, saying which setting names it when a regular file is in the way. */
    private static void createDirectory(Path directory) throws IOException {
        if (Files.exists(directory) && !Files.isDirectory(directory)) {
            throw new FileSystemException(directory.toString(), null, "not a directory (commitlog_directory); point "
                    + "commitlog_directory at a directory, or at a path that does not exist yet (it is created)");
        }
        for (Path parent = directory.getParent(); parent != null; parent = parent.getParent()) {
            if (Files.exists(parent) && !Files.isDirectory(parent)) {
                // createDirectories would say only "Not a directory" about the path asked for.
                throw new FileSystemException(parent.toString(), null, "not a directory, so commitlog_directory " + directory
                        + " cannot be created under it");
            }
        }
        Files.createDirectories(directory);
    }

    /** The first segment that may need archiving: the oldest one recovered. */
    static long firstId(LogRecovery.Recovered recovered) {
        return recovered.segments().isEmpty() ? recovered.tail().id() : recovered.segments().get(0).id();
    }

    private static CommitLogJmx registerJmx(CommitLogConfig config, CommitLogOptions options) {
        String directory = config.directory().toAbsolutePath().normalize().toString();
        String name = options.jmxName() != null ? options.jmxName() : CommitLogJmx.defaultName(directory);
        return CommitLogJmx.register(name, directory, config.totalSpace());
    }
}
