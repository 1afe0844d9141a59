package dev.commitlog.raft;

import static dev.commitlog.raft.CommitLogLogStorageTest.mockEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.JRaftUtils;
import com.alipay.sofa.jraft.entity.EnumOutter;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import dev.commitlog.Ack;
import dev.commitlog.raft.SharedLogFixture.GroupSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GroupRewrite}: a group's live entries copied forward read back the same, the old segments
 * go, and a stop after any prefix of the copies restarts to the same group (a rewrite needs no
 * marker record).
 */
class GroupRewriteTest {
    private static final int SEGMENT = 64 * 1024;
    private static final int DATA = 1024;

    @TempDir
    Path directory;

    private SharedLogFixture fixture;

    @BeforeEach
    void setup() throws IOException {
        fixture = new SharedLogFixture(directory, SEGMENT);
    }

    @AfterEach
    void teardown() {
        fixture.close();
    }

    private static LogEntry configuration(long index) {
        LogEntry entry = new LogEntry(EnumOutter.EntryType.ENTRY_TYPE_CONFIGURATION);
        entry.setId(new LogId(index, 2));
        entry.setPeers(JRaftUtils.getConfiguration("localhost:8081,localhost:8082,localhost:8083").listPeers());
        return entry;
    }

    /**
     * Group "lagging": a reset that keeps entry 20 (its live RESET record comes first among its
     * entries), entries up to 40 with a configuration at 25, then a jump to 45 (holes 41-44).
     * Group "busy" appends between them and past them, and truncates its prefix, so only
     * "lagging" holds the old segments.
     */
    private void fill() {
        CommitLogLogStorage lagging = fixture.storage("lagging");
        CommitLogLogStorage busy = fixture.storage("busy");
        for (int i = 1; i <= 30; i++) {
            assertTrue(lagging.appendEntry(mockEntry(i, 1, DATA)));
            assertTrue(busy.appendEntry(mockEntry(i, 1, DATA)));
        }
        assertTrue(lagging.reset(20)); // keeps entry 20, in a RESET record
        for (int i = 21; i <= 40; i++) {
            assertTrue(lagging.appendEntry(i == 25 ? configuration(i) : mockEntry(i, 2, DATA)));
        }
        assertTrue(lagging.appendEntry(mockEntry(45, 2, DATA)));
        for (int i = 31; i <= 200; i++) {
            assertTrue(busy.appendEntry(mockEntry(i, 1, DATA)));
        }
        assertTrue(busy.truncatePrefix(195));
    }

    @Test
    void aStopAfterAnyPrefixOfTheCopiesRestartsToTheSameGroup() throws IOException {
        fill();
        GroupSnapshot lagging = fixture.snapshot("lagging");
        GroupSnapshot busy = fixture.snapshot("busy");
        assertEquals(List.of("25=localhost:8081,localhost:8082,localhost:8083"), lagging.configurations());
        GroupState state = fixture.shared.group("lagging");
        GroupRewrite.Copies copies;
        synchronized (state.mutex) {
            copies = fixture.shared.rewrite().copies(state, Long.MAX_VALUE);
        }
        assertEquals(22, copies.records().length, "entries 20 to 40 and 45");
        assertEquals(RaftRecord.ENTRY, copies.records()[0][0], "the kept entry of the reset, as an ENTRY record");
        int appended = 0;
        for (int k : new int[] {0, 1, 2, 6, 21, 22}) {
            for (; appended < k; appended++) { // what a rewrite writes, without the switch: then the process stops
                byte[] copy = copies.records()[appended];
                fixture.shared.log().append(copy, 0, copy.length, Ack.DURABLE);
            }
            fixture.restart();
            lagging.assertSameAs(fixture.snapshot("lagging"), "lagging after a stop with " + k + " copies durable");
            busy.assertSameAs(fixture.snapshot("busy"), "busy after a stop with " + k + " copies durable");
        }
    }

    @Test
    void rewrittenEntriesReadTheSameAndTheOldSegmentsGo() throws IOException, InterruptedException {
        fill();
        GroupSnapshot lagging = fixture.snapshot("lagging");
        long files = fixture.segmentFiles();
        GroupState state = fixture.shared.group("lagging");
        long before = state.index().lowestPosition();
        long bytes = fixture.shared.rewrite().rewrite(state, Long.MAX_VALUE);
        assertTrue(bytes > 20 * DATA, bytes + " bytes copied: 21 data entries and a configuration");
        assertTrue(state.index().lowestPosition() > before);
        lagging.assertSameAs(fixture.snapshot("lagging"), "lagging read after the rewrite");
        fixture.shared.compact();
        long left = files;
        for (int i = 0; i < 500 && left > 3; i++) {
            Thread.sleep(10);
            left = fixture.segmentFiles();
        }
        assertTrue(left <= 3, files + " segment files before the rewrite, " + left + " after it and a compaction");
        lagging.assertSameAs(fixture.snapshot("lagging"), "lagging after the old segments went");
        for (int restart = 0; restart < 2; restart++) {
            fixture.restart();
            lagging.assertSameAs(fixture.snapshot("lagging"), "lagging after restart " + (restart + 1));
        }
        assertTrue(fixture.storage("lagging").appendEntry(mockEntry(46, 3, 8)), "the group goes on after its copies");
        assertNull(fixture.storage("lagging").getEntry(19));
    }

    @Test
    void aGroupLargerThanTheLimitIsLeftAlone() {
        fill();
        GroupState state = fixture.shared.group("lagging");
        long lowest = state.index().lowestPosition();
        fixture.shared.log().sync();
        long end = fixture.shared.log().durablePosition();
        assertEquals(-1, fixture.shared.rewrite().rewrite(state, 21L * DATA), "21 data entries of more than DATA bytes each, and a configuration");
        fixture.shared.log().sync();
        assertEquals(end, fixture.shared.log().durablePosition(), "nothing appended");
        assertEquals(lowest, state.index().lowestPosition());
        assertEquals(0, fixture.shared.rewrite().rewrites());
    }

    /** A reader whose entry moves, and whose old segment goes, between its index lookup and its read. */
    @Test
    void aReaderRacingRewritesAndDiscardsReadsEveryEntry() throws InterruptedException {
        fill();
        CommitLogLogStorage lagging = fixture.storage("lagging");
        CommitLogLogStorage busy = fixture.storage("busy");
        GroupState state = fixture.shared.group("lagging");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Long> indexes = new ArrayList<>();
        for (long i = 20; i <= 40; i++) {
            indexes.add(i);
        }
        indexes.add(45L);
        Thread reader = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    for (long i : indexes) {
                        LogEntry entry = lagging.getEntry(i);
                        assertNotNull(entry, "entry " + i);
                        assertEquals(i, entry.getId().getIndex());
                    }
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }, "reader");
        reader.start();
        try {
            for (int round = 0; round < 40 && failure.get() == null; round++) {
                for (int i = 0; i < 70; i++) { // a segment of the busy group's entries, truncated as it goes
                    long next = busy.getLastLogIndex() + 1;
                    assertTrue(busy.appendEntry(mockEntry((int) next, 1, DATA)));
                }
                assertTrue(busy.truncatePrefix(busy.getLastLogIndex()));
                assertTrue(fixture.shared.rewrite().rewrite(state, Long.MAX_VALUE) > 0);
                fixture.shared.compact();
            }
        } finally {
            reader.interrupt();
            reader.join();
        }
        assertNull(failure.get(), () -> "reader failed: " + failure.get());
    }
}
