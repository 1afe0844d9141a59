package dev.commitlog.raft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ceiling storage keeps JRaft's log contract: indexes, both truncations and reset. */
class MemoryLogStorageTest {
    private static List<LogEntry> entries(long from, long to, long term) {
        List<LogEntry> out = new ArrayList<>();
        for (long i = from; i <= to; i++) {
            LogEntry e = new LogEntry(EntryType.ENTRY_TYPE_DATA);
            e.setId(new LogId(i, term));
            out.add(e);
        }
        return out;
    }

    @Test
    @SuppressWarnings("deprecation")   // getTerm: deprecated in JRaft, still part of LogStorage
    void appendsTruncatesAndResets() {
        MemoryLogStorage log = new MemoryLogStorage();
        assertEquals(1, log.getFirstLogIndex());
        assertEquals(0, log.getLastLogIndex());

        assertEquals(10, log.appendEntries(entries(1, 10, 1)));
        assertEquals(10, log.getLastLogIndex());
        assertEquals(7, log.getEntry(7).getId().getIndex());
        assertThrows(IllegalStateException.class, () -> log.appendEntries(entries(12, 12, 1)), "a gap is refused");

        log.truncatePrefix(4);
        assertEquals(4, log.getFirstLogIndex());
        assertNull(log.getEntry(3));
        assertEquals(4, log.getEntry(4).getId().getIndex());

        log.truncateSuffix(6);
        assertEquals(6, log.getLastLogIndex());
        assertNull(log.getEntry(7));
        assertEquals(2, log.appendEntries(entries(7, 8, 2)));
        assertEquals(2, log.getTerm(8));

        log.truncatePrefix(20);   // past the end: empty, next append at 20
        assertEquals(20, log.getFirstLogIndex());
        assertEquals(19, log.getLastLogIndex());

        log.reset(100);
        assertEquals(100, log.getFirstLogIndex());
        assertEquals(99, log.getLastLogIndex());
        assertEquals(1, log.appendEntries(entries(100, 100, 3)));
        assertEquals(100, log.getLastLogIndex());
    }
}
