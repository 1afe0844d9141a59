package dev.commitlog.examples;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The record a key-value change is logged as: {@code int keyLength, key (UTF-8), int valueLength
 * (-1 for a delete), value (UTF-8)}, big-endian (ByteBuffer's default, which the replay view also uses).
 */
final class KeyValueRecord {
    private static final int DELETED = -1;

    private KeyValueRecord() {
    }

    static ByteBuffer put(String key, String value) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + k.length + v.length).putInt(k.length).put(k).putInt(v.length).put(v).flip();
    }

    static ByteBuffer delete(String key) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + k.length).putInt(k.length).put(k).putInt(DELETED).flip();
    }

    /** Applies one record, read from the view's position to its limit, to {@code map}. */
    static void applyTo(Map<String, String> map, ByteBuffer record) {
        String key = string(record, record.getInt());
        int valueLength = record.getInt();
        if (valueLength == DELETED) {
            map.remove(key);
        } else {
            map.put(key, string(record, valueLength));
        }
    }

    private static String string(ByteBuffer record, int length) {
        byte[] bytes = new byte[length];
        record.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
