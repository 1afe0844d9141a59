package dev.commitlog.bench.sweep;

import dev.commitlog.bench.UsageException;
import dev.commitlog.config.Compression;
import dev.commitlog.config.Encryption;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Arrays;
import java.util.Random;

/**
 * The sweep's {@code --compression}, {@code --encryption} and {@code --payload}: how the commit
 * log's columns store their flushes (docs/format.md, "Sections"), and what every cell appends.
 *
 * @param json the record is JSON-like text (compressible) rather than random bytes (incompressible)
 */
public record LogSections(Compression compression, Encryption encryption, boolean json) {
    public static final LogSections PLAIN = new LogSections(Compression.NONE, Encryption.NONE, false);

    static Compression compression(String flag, String value) throws UsageException {
        return switch (value) {
            case "none" -> Compression.NONE;
            case "lz4" -> Compression.LZ4;
            case "zstd" -> Compression.ZSTD;
            default -> throw new UsageException(flag + ": '" + value + "' is not one of none, lz4, zstd");
        };
    }

    static Encryption encryption(String flag, String value) throws UsageException {
        return switch (value) {
            case "none" -> Encryption.NONE;
            case "aes-gcm" -> Encryption.AES_GCM;
            default -> throw new UsageException(flag + ": '" + value + "' is not one of none, aes-gcm");
        };
    }

    /** {@code --payload}'s value: whether the records are JSON-like text. */
    public static boolean json(String flag, String value) throws UsageException {
        return switch (value) {
            case "random" -> false;
            case "json" -> true;
            default -> throw new UsageException(flag + ": '" + value + "' is not one of random, json");
        };
    }

    /** Whether the log's columns write sections (format version 3). */
    public boolean sectioned() {
        return compression != Compression.NONE || encryption != Encryption.NONE;
    }

    /** What the column labels carry after the mode: "" when plain, else "+lz4", "+aes", "+zstd+aes". */
    public String labelSuffix() {
        return (compression == Compression.NONE ? "" : "+" + compression.name().toLowerCase(Locale.ROOT))
                + (encryption == Encryption.NONE ? "" : "+aes");
    }

    /** How many distinct records a closed-loop writer cycles through ({@link #records}). */
    public static final int RECORDS = 256;

    /**
     * The record every cell appends, the same in every run: random bytes, or a JSON object of the
     * kind a storage node logs (repeated keys, varied values), cut to {@code bytes}.
     */
    public byte[] record(int bytes) {
        return records(bytes, 1)[0];
    }

    /**
     * {@code records} as every closed-loop or asynchronous writer cycles through them: a power of two
     * of them (a writer's turn is masked), all of one length.
     *
     * @throws IllegalArgumentException otherwise
     */
    public static byte[][] checked(byte[][] records) {
        if (Integer.bitCount(records.length) != 1 || Arrays.stream(records).anyMatch(r -> r.length != records[0].length)) {
            throw new IllegalArgumentException(records.length + " records: a power of two of them, all of one length");
        }
        return records;
    }

    /**
     * The records a closed-loop writer appends in turn: {@value #RECORDS} of {@code bytes} each,
     * random or JSON-like with values of their own, so that a section's records differ as a node's
     * do and compression gains only what each record holds (a JSON record's keys and syntax), not
     * copies of one record (which LZ4 and zstd would store as references, whatever the bytes).
     */
    public byte[][] records(int bytes) {
        return records(bytes, RECORDS);
    }

    private byte[][] records(int bytes, int count) {
        Random random = new Random(13530);
        byte[][] records = new byte[count][];
        for (int r = 0; r < count; r++) {
            if (!json) {
                records[r] = new byte[bytes];
                random.nextBytes(records[r]);
                continue;
            }
            StringBuilder text = new StringBuilder(bytes + 160);
            while (text.length() < bytes) {
                int id = random.nextInt(1_000_000);
                text.append("{\"id\":").append(id).append(",\"name\":\"user-").append(id).append("\",\"email\":\"user").append(id)
                        .append("@example.com\",\"balance\":").append(random.nextInt(100_000)).append(",\"active\":true}");
            }
            records[r] = text.substring(0, bytes).getBytes(StandardCharsets.US_ASCII);
        }
        return records;
    }

    /** The records' kind, for a run header. */
    public String describeRecords() {
        return json ? "JSON-like text" : "random bytes";
    }

    /** For the run header. */
    public String describe() {
        return String.format(Locale.ROOT, "records: %s; commit log sections: compression %s, encryption %s",
                describeRecords(), compression.name().toLowerCase(Locale.ROOT),
                encryption.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }
}
