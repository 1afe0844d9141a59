package dev.commitlog.raft;

import com.alipay.sofa.jraft.core.DefaultJRaftServiceFactory;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import com.alipay.sofa.jraft.util.SPI;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * JRaft's default services with the log storage on a shared commit log: pass an instance to
 * {@code NodeOptions.setServiceFactory}. The log URI ({@code NodeOptions.logUri}) names the
 * storage's group key, so every node of the process needs its own URI, as with JRaft's own storages.
 *
 * <p>Registered for {@code JRaftServiceLoader} under the name {@value #SPI_NAME}, below the default
 * factory's priority so it is used only when asked for by name. Loaded that way (no-argument
 * constructor) it opens one process-wide log in the directory that the system property
 * {@value #DIRECTORY_PROPERTY} names, with adaptive sync.
 */
@SPI(name = CommitLogJRaftServiceFactory.SPI_NAME, priority = -1)
public class CommitLogJRaftServiceFactory extends DefaultJRaftServiceFactory {
    public static final String SPI_NAME = "commitlog";
    public static final String DIRECTORY_PROPERTY = "commitlog.raft.directory";

    private final RaftCommitLog shared;

    /** Uses the process-wide log in {@value #DIRECTORY_PROPERTY}, opened on first use. */
    public CommitLogJRaftServiceFactory() {
        this.shared = null;
    }

    public CommitLogJRaftServiceFactory(RaftCommitLog shared) {
        this.shared = java.util.Objects.requireNonNull(shared, "shared");
    }

    @Override
    public LogStorage createLogStorage(String uri, RaftOptions raftOptions) {
        RaftCommitLog log = shared != null ? shared : ProcessLog.get();
        return log.storage(uri, raftOptions);
    }

    /** The process-wide log of the no-argument factory, closed when the JVM exits. */
    private static final class ProcessLog {
        private static RaftCommitLog log;

        static synchronized RaftCommitLog get() {
            if (log == null) {
                String directory = System.getProperty(DIRECTORY_PROPERTY);
                if (directory == null || directory.isBlank()) {
                    throw new IllegalStateException("set the system property " + DIRECTORY_PROPERTY + " to the commit log "
                            + "directory, or construct CommitLogJRaftServiceFactory with a RaftCommitLog");
                }
                try {
                    RaftCommitLog opened = RaftCommitLog.open(CommitLogConfig.builder(Path.of(directory))
                            .syncMode(SyncMode.ADAPTIVE).build());
                    Runtime.getRuntime().addShutdownHook(new Thread(opened::close, "commitlog-raft-close"));
                    log = opened;
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot open the Raft commit log in " + directory, e);
                }
            }
            return log;
        }
    }
}
