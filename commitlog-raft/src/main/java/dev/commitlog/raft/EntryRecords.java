package dev.commitlog.raft;

import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.entity.codec.LogEntryDecoder;
import com.alipay.sofa.jraft.entity.codec.LogEntryEncoder;
import java.nio.ByteBuffer;

/**
 * Turns one group's log entries into records of the shared log and back (layout in
 * {@link RaftRecord}). A DATA entry without peers, learners or old peers is written raw (its data,
 * and its checksum when it has one); every other entry goes through the group's
 * {@link LogEntryEncoder}, so configuration entries keep whatever the codec carries.
 */
final class EntryRecords {
    private final LogEntryEncoder encoder;
    private final LogEntryDecoder decoder;

    EntryRecords(LogEntryEncoder encoder, LogEntryDecoder decoder) {
        this.encoder = encoder;
        this.decoder = decoder;
    }

    /** The record of {@code entry} for group {@code id}: DATA, DATA_CHECKSUM or ENTRY. */
    byte[] entry(int id, LogEntry entry) {
        LogId logId = entry.getId();
        if (isPlainData(entry)) {
            return RaftRecord.data(id, logId.getIndex(), logId.getTerm(), entry.hasChecksum(), entry.getChecksum(), entry.getData());
        }
        return RaftRecord.encoded(RaftRecord.ENTRY, id, logId.getIndex(), logId.getTerm(), typeOf(entry), encoder.encode(entry));
    }

    /** The RESET record keeping {@code entry}: always through the codec (a reset is rare). */
    byte[] reset(int id, LogEntry entry) {
        LogId logId = entry.getId();
        return RaftRecord.encoded(RaftRecord.RESET, id, logId.getIndex(), logId.getTerm(), typeOf(entry), encoder.encode(entry));
    }

    /** Null lists only: an empty list decodes differently from a null one, so it goes through the codec. */
    private static boolean isPlainData(LogEntry entry) {
        return entry.getType() == EntryType.ENTRY_TYPE_DATA && entry.getPeers() == null && entry.getOldPeers() == null
                && entry.getLearners() == null && entry.getOldLearners() == null;
    }

    private static int typeOf(LogEntry entry) {
        return entry.getType() == null ? 0 : entry.getType().getNumber();
    }

    /**
     * The entry in an entry-bearing record (from its position to its limit), or null if the codec
     * cannot decode it. Copies the data into an array of its own: state machines call
     * {@code getData().array()}.
     */
    LogEntry decode(ByteBuffer record) {
        byte kind = RaftRecord.kind(record);
        int at = RaftRecord.fieldsAt(record);
        if (kind == RaftRecord.DATA || kind == RaftRecord.DATA_CHECKSUM) {
            LogEntry entry = new LogEntry(EntryType.ENTRY_TYPE_DATA);
            entry.setId(new LogId(record.getLong(at), record.getLong(at + 8)));
            int dataAt = at + RaftRecord.INDEX_TERM;
            if (kind == RaftRecord.DATA_CHECKSUM) {
                entry.setChecksum(record.getLong(dataAt));
                dataAt += 8;
            }
            int length = record.limit() - dataAt;
            if (length > 0) { // as JRaft's V2 codec: empty data decodes to null
                byte[] data = new byte[length];
                record.get(dataAt, data, 0, length);
                entry.setData(ByteBuffer.wrap(data));
            }
            return entry;
        }
        if (kind == RaftRecord.ENTRY || kind == RaftRecord.RESET) {
            int bodyAt = at + RaftRecord.INDEX_TERM + 1;
            byte[] body = new byte[record.limit() - bodyAt];
            record.get(bodyAt, body, 0, body.length);
            return decoder.decode(body);
        }
        throw new IllegalArgumentException("a record of kind " + kind + " holds no log entry");
    }
}
