package dev.commitlog;

import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.disk.ChronicleJvmFlags;
import dev.commitlog.disk.DirectoryLock;
import dev.commitlog.instrument.CommitLogJmx;
import dev.commitlog.replay.LogRecovery;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What {@link CommitLog#open} does before the log's parts are made: the directory, the JMX name, the defaults. */
final class LogOpening {
    private static final Logger LOG = LoggerFactory.getLogger(CommitLog.class);
    /** Where damage goes when the embedding node gives no listener: a warning with everything an operator needs. */
    static final CorruptionListener LOGGING_LISTENER = (file, offset, position, reason, action) ->
            LOG.warn("commit log damage in {} at offset {} (log position {}): {}; {}", file, offset, position, reason, action);

    private LogOpening() {
    }

    /** See {@link CommitLog#open(CommitLogConfig, CommitLogOptions)}. */
    static CommitLog open(CommitLogConfig config, CommitLogOptions options) throws IOException {
        ChronicleJvmFlags.check(); // before any file is made: without the flags Chronicle fails half-way through
        CorruptionListener listener = options.corruptionListener() == null ? LOGGING_LISTENER : options.corruptionListener();
        Path directory = config.directory();
        createDirectory(directory);
        DirectoryLock lock = DirectoryLock.acquire(directory);
        CommitLogJmx jmx = null;
        try {
            jmx = options.jmx() ? registerJmx(config, options) : null; // first: a name clash fails before anything starts
            LogRecovery.Recovered recovered = LogRecovery.recover(directory, options.storage(), config.segmentSize(),
                    config.filePermissions(), config.replayPolicy(), listener);
            return new CommitLog(config, options, lock, recovered, listener, jmx);
        } catch (IOException | RuntimeException | Error e) {
            if (jmx != null) {
                jmx.close();
            }
            lock.closeLeavingNoTrace();
            throw e;
        }
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
