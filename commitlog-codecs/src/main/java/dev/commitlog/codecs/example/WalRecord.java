package dev.commitlog.codecs.example;

import java.util.Arrays;
import java.util.Objects;

/**
 * A replication / write-ahead-log record of the kind a storage node appends per write: the
 * transaction, the table, the operation, the row key and a few typed columns; 100-300 bytes encoded.
 * The record the codec tests and the encoding benchmark use. Mutable with public fields, so one
 * instance can be refilled per append and every serializer (Jackson, Kryo) can map it as it is.
 */
public final class WalRecord {
    public static final byte INSERT = 1;
    public static final byte UPDATE = 2;
    public static final byte DELETE = 3;

    public long txnId;
    public int tableId;
    public byte op;
    public long commitTimeMicros;
    public byte[] key = new byte[0];
    public long balance;
    public double price;
    public int quantity;
    public String note = "";

    /** A deterministic record {@code i}: keys of 16-32 bytes, notes of 40-160 ASCII characters. */
    public static WalRecord sample(long i) {
        WalRecord record = new WalRecord();
        record.txnId = 1_000_000_000L + i;
        record.tableId = (int) (i % 37);
        record.op = (byte) (1 + i % 3);
        record.commitTimeMicros = 1_764_000_000_000_000L + i * 17;
        record.key = new byte[16 + (int) (i % 17)];
        for (int b = 0; b < record.key.length; b++) {
            record.key[b] = (byte) (i * 31 + b * 7);
        }
        record.balance = (i * 7919) % 1_000_000 - 500_000;
        record.price = (i % 10_000) / 100.0;
        record.quantity = (int) (i % 1_000);
        StringBuilder note = new StringBuilder("order ").append(i).append(" shipped to warehouse ").append(i % 97);
        while (note.length() < 40 + i % 121) {
            note.append(" lorem ipsum");
        }
        record.note = note.substring(0, (int) (40 + i % 121));
        return record;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof WalRecord that && txnId == that.txnId && tableId == that.tableId && op == that.op
                && commitTimeMicros == that.commitTimeMicros && Arrays.equals(key, that.key) && balance == that.balance
                && Double.compare(price, that.price) == 0 && quantity == that.quantity && Objects.equals(note, that.note);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(txnId) * 31 + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return "WalRecord[txn=" + txnId + ", table=" + tableId + ", op=" + op + ", key=" + key.length + " bytes, note=" + note + "]";
    }
}
