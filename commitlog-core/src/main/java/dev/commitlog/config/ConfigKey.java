package dev.commitlog.config;

import java.util.Optional;

/**
 * The YAML keys, in the order {@code toString()} and {@code conf/commitlog.yaml} list them (the file
 * documents only the keys the engine acts on, {@link #actedOn}). Constant
 * names are the YAML names upper-cased, so {@link YamlNames} maps them like every other enum here.
 */
enum ConfigKey {
    COMMITLOG_DIRECTORY("/var/lib/commitlog"),
    COMMITLOG_SYNC("periodic"),
    COMMITLOG_SYNC_PERIOD("10000ms"),
    COMMITLOG_SYNC_GROUP_WINDOW("10ms"),
    PERIODIC_COMMITLOG_SYNC_LAG_BLOCK("15000ms"),
    COMMITLOG_DURABLE_MARK_INTERVAL("1ms"),
    COMMITLOG_SEGMENT_SIZE("32MiB"),
    MAX_RECORD_SIZE("16MiB"),
    COMMITLOG_TOTAL_SPACE("8GiB"),
    COMMITLOG_RECYCLE_SEGMENTS("4"),
    COMMITLOG_DISK_ACCESS_MODE("standard"),
    COMMIT_FAILURE_POLICY("stop"),
    COMMITLOG_REPLAY_POLICY("tolerate_tail"),
    COMMITLOG_FILE_MODE("\"0600\""),
    COMMITLOG_COMPRESSION("lz4"),
    COMMITLOG_COMPRESSION_LEVEL("3"),
    COMMITLOG_ENCRYPTION("aes-gcm");

    /** A valid value, quoted in error messages so the reader sees the expected shape. */
    final String example;
    /** Whether the engine acts on the key; only those are documented in {@code conf/commitlog.yaml}. */
    final boolean actedOn;

    ConfigKey(String example) {
        this(example, true);
    }

    ConfigKey(String example, boolean actedOn) {
        this.example = example;
        this.actedOn = actedOn;
    }

    /** The YAML name, so keys can be concatenated straight into messages. */
    @Override
    public String toString() {
        return YamlNames.of(this);
    }

    static Optional<ConfigKey> fromYaml(String name) {
        for (ConfigKey key : values()) {
            if (key.toString().equals(name)) {
                return Optional.of(key);
            }
        }
        return Optional.empty();
    }

    /**
     * The known key an unknown one was probably meant to be: the nearest by edit distance, if the typo
     * is small for the key's length, or a known key the unknown one contains, which catches the old
     * Cassandra names such as {@code commitlog_sync_period_in_ms}.
     */
    static Optional<ConfigKey> closest(String unknown) {
        ConfigKey best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (ConfigKey key : values()) {
            int distance = editDistance(unknown, key.toString());
            if (distance < bestDistance) {
                best = key;
                bestDistance = distance;
            }
        }
        boolean smallTypo = bestDistance <= Math.max(2, unknown.length() / 3);
        boolean contains = unknown.contains(best.toString());
        return smallTypo || contains ? Optional.of(best) : Optional.empty();
    }

    /** Levenshtein distance; keys are short, so the quadratic table is fine. */
    private static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
