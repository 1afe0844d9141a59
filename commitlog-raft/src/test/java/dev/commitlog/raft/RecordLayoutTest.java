package dev.commitlog.raft;

import static dev.commitlog.raft.CommitLogLogStorageTest.mockEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.sofa.jraft.JRaftUtils;
import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import dev.commitlog.config.CommitLogConfig;
import dev.commitlog.config.SyncMode;
import dev.commitlog.format.RecordDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the records look like: raw DATA entries, checksums kept, configuration entries through the codec, and their sizes. */
class RecordLayoutTest {
    /** A JRaft log URI of typical length (40 bytes). */
    private static final String KEY = "/var/lib/app/raft/region-000123/raft/log";

    @TempDir
    Path directory;

    private SharedLogFixture fixture;

    @BeforeEach
    void setup() throws IOException {
        fixture = new SharedLogFixture(directory, 1 << 20);
    }

    @AfterEach
    void teardown() {
        fixture.close();
    }

    private static LogEntry data(long index, long term, int size) {
        LogEntry entry = new LogEntry(EntryType.ENTRY_TYPE_DATA);
        entry.setId(new LogId(index, term));
        byte[] bytes = new byte[size];
        ThreadLocalRandom.current().nextBytes(bytes);
        entry.setData(ByteBuffer.wrap(bytes));
        return entry;
    }

    private byte[] recordOf(long index) {
        long position = fixture.shared.group(KEY).index().get(index);
        return fixture.shared.log().readAt(position);
    }

    @Test
    void aDataEntryIsItsDataAfterAnEighteenByteHeader() throws IOException {
        LogEntry entry = data(5, 3, 128);
        assertTrue(fixture.storage(KEY).appendEntry(entry));
        byte[] record = recordOf(5);
        assertEquals(RaftRecord.DATA, record[0]);
        assertEquals(1 + 1 + 16 + 128, record.length, "kind, group id, index, term, data");
        fixture.restart();
        assertEquals(entry, fixture.storage(KEY).getEntry(5));
    }

    @Test
    void aChecksumIsKeptAndChecked() throws IOException {
        LogEntry good = data(1, 1, 64);
        good.setChecksum(good.checksum());
        LogEntry bad = data(2, 1, 64);
        bad.setChecksum(good.checksum()); // not its own
        assertEquals(2, fixture.storage(KEY).appendEntries(List.of(good, bad)));
        assertEquals(RaftRecord.DATA_CHECKSUM, recordOf(1)[0]);
        fixture.restart();
        LogEntry read = fixture.storage(KEY).getEntry(1);
        assertEquals(good, read);
        assertTrue(read.hasChecksum());
        assertEquals(good.getChecksum(), read.getChecksum());
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> fixture.storage(KEY).getEntry(2));
        assertTrue(refused.getMessage().contains("fails its checksum"), refused.getMessage());
    }

    @Test
    void configurationEntriesAndEntriesWithPeersGoThroughTheCodec() throws IOException {
        LogEntry conf = new LogEntry(EntryType.ENTRY_TYPE_CONFIGURATION);
        conf.setId(new LogId(1, 1));
        conf.setPeers(JRaftUtils.getConfiguration("localhost:8081,localhost:8082").listPeers());
        conf.setLearners(JRaftUtils.getConfiguration("localhost:8083").listPeers());
        conf.setOldPeers(JRaftUtils.getConfiguration("localhost:8081").listPeers());
        conf.setChecksum(conf.checksum());
        LogEntry dataWithPeers = data(2, 1, 16); // unusual, but the codec keeps it whole
        dataWithPeers.setPeers(JRaftUtils.getConfiguration("localhost:8084").listPeers());
        LogEntry empty = new LogEntry(EntryType.ENTRY_TYPE_DATA); // no data: reads back with null data, as V2 does
        empty.setId(new LogId(3, 1));
        assertEquals(3, fixture.storage(KEY).appendEntries(List.of(conf, dataWithPeers, empty)));
        assertEquals(RaftRecord.ENTRY, recordOf(1)[0]);
        assertEquals(RaftRecord.ENTRY, recordOf(2)[0]);
        assertEquals(RaftRecord.DATA, recordOf(3)[0]);

        fixture.restart();
        CommitLogLogStorage storage = fixture.storage(KEY);
        assertEquals(conf, storage.getEntry(1));
        assertTrue(storage.getEntry(1).hasChecksum());
        assertEquals(dataWithPeers, storage.getEntry(2));
        assertEquals(empty, storage.getEntry(3));
        assertEquals(List.of("1=localhost:8081,localhost:8082,localhost:8083/learner"), fixture.snapshot(KEY).configurations());
    }

    /**
     * Bytes per DATA entry in the log (frame header and padding included) against the layout that
     * carried the group key and the V2-encoded entry in every record.
     */
    @Test
    void bytesPerRecordAgainstKeyAndCodecRecords() {
        int keyLength = RaftRecord.keyBytes(KEY).length;
        long next = 1;
        for (int size : new int[] {128, 1024}) {
            List<LogEntry> entries = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                entries.add(data(next + i, 7, size));
            }
            assertEquals(100, fixture.storage(KEY).appendEntries(entries));
            PositionIndex index = fixture.shared.group(KEY).index();
            long perRecord = (index.get(next + 99) - index.get(next)) / 99;
            next += 100;
            int keyAndCodec = 1 + 2 + keyLength + 17 + LogEntryV2CodecFactory.getInstance().encoder().encode(entries.get(0)).length;
            long before = RecordDescriptor.alignedFrameLength(keyAndCodec);
            System.out.printf("commitlog-raft record size, %d B data, %d B group key: %d bytes per entry (key and codec layout: %d)%n",
                    size, keyLength, perRecord, before);
            assertEquals(RecordDescriptor.alignedFrameLength(1 + 1 + 16 + size), perRecord);
            assertTrue(perRecord < before);
        }
    }

    @Test
    void aFarJumpInIndexIsRefusedAndTheIndexStaysSmall() throws IOException {
        CommitLogLogStorage storage = fixture.storage(KEY);
        assertTrue(storage.appendEntry(mockEntry(1, 1, 4)));
        long tooFar = 1 + PositionIndex.MAX_GAP + 2;
        assertFalse(storage.appendEntry(mockEntry((int) tooFar, 1, 4)));
        assertEquals(1, storage.appendEntries(List.of(mockEntry(2, 1, 4), mockEntry((int) (tooFar + 1), 1, 4))),
                "the batch stops at the far entry");
        assertEquals(2, storage.getLastLogIndex());
        assertTrue(fixture.shared.group(KEY).index().capacity() <= 64, "no slots for the refused gap");
        String reason = fixture.shared.group(KEY).index().refusal(tooFar + 1);
        assertNotNull(reason);
        assertTrue(reason.contains(String.valueOf(PositionIndex.MAX_GAP)) && reason.contains("last index 2"), reason);

        long farthest = 2 + PositionIndex.MAX_GAP + 1; // exactly MAX_GAP missing indexes: allowed
        assertTrue(storage.appendEntry(mockEntry((int) farthest, 1, 4)));
        assertTrue(storage.truncatePrefix(farthest + 1_000_000)); // a truncation may move the first index anywhere
        assertTrue(storage.appendEntry(mockEntry((int) (farthest + 1_000_000), 2, 4)));
        assertTrue(fixture.shared.group(KEY).index().capacity() <= 2 * (PositionIndex.MAX_GAP + 64));
        fixture.restart();
        assertEquals(farthest + 1_000_000, fixture.storage(KEY).getLastLogIndex());
    }

    /** A record of the earlier layout: kind 1 (its ENTRY), key length u16, key, index, term, type, V2 body. */
    @Test
    void aLogOfTheEarlierLayoutIsRefusedByName() throws IOException {
        fixture.close();
        byte[] key = RaftRecord.keyBytes(KEY);
        byte[] body = LogEntryV2CodecFactory.getInstance().encoder().encode(data(1, 1, 8));
        ByteBuffer old = ByteBuffer.allocate(3 + key.length + 17 + body.length);
        old.put((byte) 1).putShort((short) key.length).put(key).putLong(1).putLong(1).put((byte) 1).put(body);
        try (RaftCommitLog shared = RaftCommitLog.open(CommitLogConfig.builder(directory.resolve("old"))
                .syncMode(SyncMode.BATCH).build())) {
            shared.log().append(old.array(), 0, old.capacity());
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> shared.group(KEY));
            assertTrue(refused.getMessage().contains("earlier snapshot of commitlog-raft"), refused.getMessage());
            assertFalse(shared.storage(KEY, new RaftOptions())
                    .init(new LogStorageOptions()), "init reports the failure");
        }
        fixture = new SharedLogFixture(directory, 1 << 20);
    }
}
