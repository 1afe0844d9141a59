package dev.commitlog.section;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Plain ranges for section tests: incompressible random bytes, or JSON-like records (verbose, repetitive keys). */
final class Payloads {
    private Payloads() {
    }

    static ByteBuffer random(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return direct(bytes);
    }

    /** Records as a storage node might log them: JSON objects with the same keys and varied values, one after another. */
    static ByteBuffer json(Random random, int length) {
        StringBuilder text = new StringBuilder(length + 256);
        while (text.length() < length) {
            int id = random.nextInt(1_000_000);
            text.append("{\"id\":").append(id).append(",\"name\":\"user-").append(id).append("\",\"email\":\"user").append(id)
                    .append("@example.com\",\"balance\":").append(random.nextInt(100_000)).append('.').append(random.nextInt(100))
                    .append(",\"tags\":[\"").append(random.nextBoolean() ? "gold" : "silver").append("\",\"active\"],\"updated\":")
                    .append(1_700_000_000_000L + random.nextInt(1 << 30)).append("}\n");
        }
        byte[] bytes = text.substring(0, length).getBytes(StandardCharsets.US_ASCII);
        return direct(bytes);
    }

    static ByteBuffer direct(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length);
        buffer.put(bytes).flip();
        return buffer;
    }

    static byte[] bytes(ByteBuffer buffer, int from, int length) {
        byte[] bytes = new byte[length];
        buffer.get(from, bytes);
        return bytes;
    }
}
