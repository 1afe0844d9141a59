package dev.commitlog.instrument;

import dev.commitlog.metrics.CommitLogMXBean;
import dev.commitlog.metrics.CommitLogMetrics;
import dev.commitlog.metrics.LatencySummary;
import java.lang.management.ManagementFactory;
import java.util.function.Supplier;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link CommitLogMXBean} of one open log, registered in the platform MBean server. A console
 * reads attributes one by one, so one snapshot serves every read within {@link #REUSE_NANOS}.
 */
public final class CommitLogJmx implements CommitLogMXBean, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CommitLogJmx.class);
    /** Reads closer together than this share one snapshot (a console refresh reads ~20 attributes). */
    private static final long REUSE_NANOS = 200_000_000L;

    private final ObjectName name;
    private final String directory;
    private final long totalSpace;
    /** Set once the log has opened; reads before that fail. */
    private volatile Supplier<CommitLogMetrics> metrics;
    private CommitLogMetrics last;
    private long lastTaken;

    private CommitLogJmx(ObjectName name, String directory, long totalSpace) {
        this.name = name;
        this.directory = directory;
        this.totalSpace = totalSpace;
    }

    /** The default name of a log's MBean: {@code dev.commitlog:type=CommitLog,name="<directory>"}. */
    public static String defaultName(String directory) {
        return "dev.commitlog:type=CommitLog,name=" + ObjectName.quote(directory);
    }

    /**
     * Registers the MBean under {@code objectName}, before the log opens (so that a name clash fails
     * before anything starts); {@link #bind} connects it to the log's metrics.
     *
     * @throws IllegalArgumentException if the name is malformed or already registered (another log
     *                                  in this JVM uses it)
     */
    public static CommitLogJmx register(String objectName, String directory, long totalSpace) {
        ObjectName name;
        try {
            name = new ObjectName(objectName);
        } catch (JMException e) {
            throw new IllegalArgumentException("JMX name '" + objectName + "' is not a valid ObjectName: " + e.getMessage(), e);
        }
        CommitLogJmx bean = new CommitLogJmx(name, directory, totalSpace);
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(bean, name);
        } catch (InstanceAlreadyExistsException e) {
            throw new IllegalArgumentException("JMX name '" + objectName + "' is already registered (another log in this JVM?); "
                    + "give each log its own name with CommitLogOptions.jmxName", e);
        } catch (JMException e) {
            throw new IllegalArgumentException("cannot register JMX name '" + objectName + "': " + e.getMessage(), e);
        }
        return bean;
    }

    /** Connects the MBean to the opened log's metrics. */
    public void bind(Supplier<CommitLogMetrics> source) {
        this.metrics = source;
    }

    public ObjectName name() {
        return name;
    }

    /** Unregisters; a failure is logged, never thrown (the log is closing). */
    @Override
    public void close() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
        } catch (JMException e) {
            LOG.warn("could not unregister the commit log MBean {}: {}", name, e.toString());
        }
    }

    private synchronized CommitLogMetrics metrics() {
        Supplier<CommitLogMetrics> source = metrics;
        if (source == null) {
            throw new IllegalStateException("commit log " + directory + " is still opening");
        }
        long now = System.nanoTime();
        if (last == null || now - lastTaken > REUSE_NANOS) {
            last = source.get();
            lastTaken = now;
        }
        return last;
    }

    @Override
    public String getDirectory() {
        return directory;
    }

    @Override
    public long getCompletedTasks() {
        return metrics().completedAppends();
    }

    @Override
    public int getPendingTasks() {
        return metrics().appendersWaiting();
    }

    @Override
    public long getTotalCommitLogSize() {
        return metrics().totalSize();
    }

    @Override
    public long getTotalSpace() {
        return totalSpace;
    }

    @Override
    public long getOverSizedMutations() {
        return metrics().oversizeRejected();
    }

    @Override
    public long getDurablePosition() {
        return metrics().durablePosition();
    }

    @Override
    public long getFlushes() {
        return metrics().flushes();
    }

    @Override
    public long getRecordsFlushed() {
        return metrics().recordsFlushed();
    }

    @Override
    public long getBytesFlushed() {
        return metrics().bytesFlushed();
    }

    @Override
    public long getSegmentsCreated() {
        return metrics().segmentsCreated();
    }

    @Override
    public long getSegmentsRecycled() {
        return metrics().segmentsRecycled();
    }

    @Override
    public long getLagBlocks() {
        return metrics().lagBlocks();
    }

    @Override
    public long getSpaceRequests() {
        return metrics().spaceRequests();
    }

    @Override
    public long getSegmentsArchived() {
        return metrics().segmentsArchived();
    }

    @Override
    public long getArchiveFailures() {
        return metrics().archiveFailures();
    }

    @Override
    public LatencySummary getAppendLatency() {
        return LatencySummary.of(metrics().appendLatency());
    }

    @Override
    public LatencySummary getWaitingOnCommit() {
        return LatencySummary.of(metrics().waitingOnCommit());
    }

    @Override
    public LatencySummary getWaitingOnFlush() {
        return LatencySummary.of(metrics().waitingOnFlush());
    }

    @Override
    public LatencySummary getWaitingOnSegmentAllocation() {
        return LatencySummary.of(metrics().waitingOnSegmentAllocation());
    }
}
