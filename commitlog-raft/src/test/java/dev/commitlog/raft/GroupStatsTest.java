package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.entity.EnumOutter;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RaftCommitLog#groupStats()}: each group's entries, bounds, appended counts and bytes, and the bytes it pins. */
class GroupStatsTest {
    private static final int DATA = 100;
    /** A DATA record: kind, one-byte group id, index, term, data. */
    private static final int RECORD = 1 + 1 + 16 + DATA;

    @TempDir
    Path directory;

    private SharedLogFixture fixture;

    @BeforeEach
    void setup() throws IOException {
        fixture = new SharedLogFixture(directory, 64 * 1024);
    }

    @AfterEach
    void teardown() {
        fixture.close();
    }

    private void append(String key, int from, int to) {
        List<LogEntry> batch = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            LogEntry entry = new LogEntry(EnumOutter.EntryType.ENTRY_TYPE_DATA);
            entry.setId(new LogId(i, 1));
            entry.setData(ByteBuffer.wrap(new byte[DATA]));
            batch.add(entry);
        }
        assertEquals(batch.size(), fixture.storage(key).appendEntries(batch));
    }

    private Map<String, RaftGroupStats> stats() {
        return fixture.shared.groupStats().stream().collect(Collectors.toMap(RaftGroupStats::groupKey, Function.identity()));
    }

    @Test
    void eachGroupsFiguresFollowItsCalls() throws IOException {
        append("a", 1, 10);
        append("b", 1, 3);
        append("a", 11, 20);
        fixture.storage("empty");
        Map<String, RaftGroupStats> stats = stats();
        assertEquals(3, stats.size());
        RaftGroupStats a = stats.get("a");
        assertEquals(20, a.entries());
        assertEquals(1, a.firstIndex());
        assertEquals(20, a.lastIndex());
        assertEquals(20, a.appendedEntries());
        assertEquals(20L * RECORD, a.appendedBytes());
        long durable = fixture.shared.log().durablePosition();
        assertEquals(fixture.shared.group("a").index().get(1), a.lowestPosition());
        assertTrue(a.pinnedBytes() <= durable - a.lowestPosition() && a.pinnedBytes() > 20L * RECORD, a.toString()); // durable read after it
        assertEquals(3 * RECORD, stats.get("b").appendedBytes());
        assertTrue(stats.get("b").pinnedBytes() < a.pinnedBytes(), "b's first entry came after a's");
        RaftGroupStats empty = stats.get("empty");
        assertEquals(0, empty.entries());
        assertEquals(Long.MAX_VALUE, empty.lowestPosition());
        assertEquals(0, empty.pinnedBytes());

        assertTrue(fixture.storage("a").truncatePrefix(15));
        assertTrue(fixture.storage("a").truncateSuffix(18));
        RaftGroupStats cut = fixture.shared.groupStats("a").orElseThrow();
        assertEquals(4, cut.entries());
        assertEquals(15, cut.firstIndex());
        assertEquals(18, cut.lastIndex());
        assertEquals(20, cut.appendedEntries(), "appended counts only grow");
        assertEquals(fixture.shared.group("a").index().get(15), cut.lowestPosition());
        assertTrue(cut.pinnedBytes() < a.pinnedBytes());
        assertTrue(cut.appendsPerSecondSince(a) == 0 && cut.appendedBytesPerSecondSince(a) == 0);

        append("a", 19, 30);
        RaftGroupStats later = fixture.shared.groupStats("a").orElseThrow();
        assertTrue(later.appendsPerSecondSince(cut) > 0);
        assertThrows(IllegalArgumentException.class, () -> later.appendsPerSecondSince(stats.get("b")));
        assertThrows(IllegalArgumentException.class, () -> cut.appendsPerSecondSince(later));

        fixture.restart(); // replay rebuilds the entries but appends nothing
        RaftGroupStats restarted = fixture.shared.groupStats("a").orElseThrow();
        assertEquals(16, restarted.entries());
        assertEquals(0, restarted.appendedEntries());
        assertEquals(later.lowestPosition(), restarted.lowestPosition());
    }

    @Test
    void aDroppedOrUnknownGroupHasNoFigures() {
        append("a", 1, 5);
        fixture.drop("a");
        assertTrue(fixture.shared.groupStats("a").isEmpty());
        assertTrue(fixture.shared.groupStats("never").isEmpty());
        assertTrue(fixture.shared.groupStats().isEmpty());
        fixture.close();
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> fixture.shared.groupStats());
        assertTrue(closed.getMessage().contains("is closed"), closed.getMessage());
    }
}
