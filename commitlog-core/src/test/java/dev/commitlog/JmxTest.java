package dev.commitlog;

import static dev.commitlog.TestLogs.config;
import static dev.commitlog.TestLogs.payload;
import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.config.SyncMode;
import dev.commitlog.instrument.CommitLogJmx;
import dev.commitlog.metrics.CommitLogMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MBean: registered on open under a name per directory, readable, gone on close. */
class JmxTest {
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    Path dir;

    @Test
    void twoLogsRegisterUnderTheirOwnNamesAndUnregisterOnClose() throws Exception {
        Path first = Files.createDirectories(dir.resolve("a,b=c:d"));   // characters ObjectName must quote
        Path second = Files.createDirectories(dir.resolve("second"));
        ObjectName firstName = new ObjectName(CommitLogJmx.defaultName(first.toAbsolutePath().normalize().toString()));
        ObjectName secondName = new ObjectName(CommitLogJmx.defaultName(second.toAbsolutePath().normalize().toString()));
        try (CommitLog a = CommitLog.open(config(first, SyncMode.BATCH).build());
             CommitLog b = CommitLog.open(config(second, SyncMode.BATCH).build())) {
            for (int i = 0; i < 7; i++) {
                byte[] record = payload(i, 20);
                a.append(record, 0, record.length);
            }
            assertTrue(SERVER.isRegistered(firstName));
            assertTrue(SERVER.isRegistered(secondName));
            assertEquals(7L, SERVER.getAttribute(firstName, "CompletedTasks"));
            assertEquals(0L, SERVER.getAttribute(secondName, "CompletedTasks"));
            assertEquals(b.durablePosition(), SERVER.getAttribute(secondName, "DurablePosition"));
            assertEquals(first.toAbsolutePath().normalize().toString(), SERVER.getAttribute(firstName, "Directory"));
            assertEquals(a.metrics().totalSize(), SERVER.getAttribute(firstName, "TotalCommitLogSize"));
            assertEquals(a.config().totalSpace(), SERVER.getAttribute(firstName, "TotalSpace"));
            CompositeData commitWait = (CompositeData) SERVER.getAttribute(firstName, "WaitingOnCommit");
            assertTrue((Long) commitWait.get("count") > 0, "batch appends waited");
            assertTrue((Double) commitWait.get("99thPercentile") > 0);
            assertEquals("microseconds", commitWait.get("durationUnit"));
            CompositeData flushes = (CompositeData) SERVER.getAttribute(firstName, "WaitingOnFlush");
            assertEquals(a.metrics().flushes(), (Long) flushes.get("count"));

            CommitLogMXBean proxy = JMX.newMXBeanProxy(SERVER, firstName, CommitLogMXBean.class);
            assertEquals(7, proxy.getCompletedTasks());
            assertEquals(1, proxy.getAppendLatency().getCount(), "one append in 64 is timed, the thread's first");
        }
        assertFalse(SERVER.isRegistered(firstName), "unregistered on close");
        assertFalse(SERVER.isRegistered(secondName));
    }

    @Test
    void aChosenNameIsUsedAndAClashFailsTheSecondOpenCleanly() throws Exception {
        Path first = Files.createDirectories(dir.resolve("first"));
        Path second = Files.createDirectories(dir.resolve("second"));
        String name = "my.node:type=CommitLog,name=main";
        try (CommitLog log = CommitLog.open(config(first, SyncMode.BATCH).build(), CommitLogOptions.builder().jmxName(name).build())) {
            assertTrue(SERVER.isRegistered(new ObjectName(name)));
            IllegalArgumentException clash = assertThrows(IllegalArgumentException.class,
                    () -> CommitLog.open(config(second, SyncMode.BATCH).build(), CommitLogOptions.builder().jmxName(name).build()));
            assertTrue(clash.getMessage().contains("already registered"), clash.getMessage());
            assertTrue(SERVER.isRegistered(new ObjectName(name)), "the first log's MBean is untouched");
            // The failed open released the directory: it opens with another name.
            try (CommitLog other = CommitLog.open(config(second, SyncMode.BATCH).build(),
                    CommitLogOptions.builder().jmxName("my.node:type=CommitLog,name=other").build())) {
                assertTrue(SERVER.isRegistered(new ObjectName("my.node:type=CommitLog,name=other")));
                assertEquals(other.durablePosition(), SERVER.getAttribute(new ObjectName("my.node:type=CommitLog,name=other"), "DurablePosition"));
            }
            assertEquals(0, log.metrics().completedAppends());
        }
        assertFalse(SERVER.isRegistered(new ObjectName(name)));
    }

    @Test
    void noJmxRegistersNothingAndABadNameIsOneClearError() throws Exception {
        ObjectName defaultName = new ObjectName(CommitLogJmx.defaultName(dir.toAbsolutePath().normalize().toString()));
        try (CommitLog log = CommitLog.open(config(dir, SyncMode.BATCH).build(), CommitLogOptions.builder().noJmx().build())) {
            assertFalse(SERVER.isRegistered(defaultName));
            assertEquals(0, log.metrics().completedAppends(), "metrics work without JMX");
        }
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> CommitLog.open(config(dir, SyncMode.BATCH).build(), CommitLogOptions.builder().jmxName("no colon").build()));
        assertTrue(bad.getMessage().startsWith("JMX name 'no colon' is not a valid ObjectName"), bad.getMessage());
    }
}
