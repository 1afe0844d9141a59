package dev.commitlog.config;

/**
 * A configuration value is missing, malformed, out of range or contradicts another one.
 *
 * <p>The message names the YAML key, the value as given and what would be accepted, e.g.
 * {@code commitlog_sync_period: '10 seconds' is not a duration; expected ... (e.g. 10000ms)}.
 * Errors found while loading a file are prefixed with the file name and line.
 */
public final class ConfigException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final String value;

    /**
     * @param key     the YAML key at fault, or {@code null} when the document as a whole is at fault
     * @param value   the value as given, or {@code null} when there is none (e.g. a missing key)
     * @param message the full message; it should name the key, the value and what is allowed
     */
    public ConfigException(String key, String value, String message) {
        this(key, value, message, null);
    }

    /** As {@link #ConfigException(String, String, String)}, with the underlying cause. */
    public ConfigException(String key, String value, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
        this.value = value;
    }

    /** @return the YAML key at fault, or {@code null} when the document as a whole is at fault */
    public String key() {
        return key;
    }

    /** @return the value as given, or {@code null} when there is none (a missing key, an empty file) */
    public String value() {
        return value;
    }

    /** The usual message shape: {@code key: 'value' problem}. */
    static ConfigException invalid(ConfigKey key, String value, String problem) {
        return new ConfigException(key.toString(), value, key + ": " + quoted(value) + " " + problem);
    }

    /** A value in single quotes for a message, control characters escaped so the message stays one line. */
    static String quoted(String value) {
        StringBuilder quoted = new StringBuilder(value.length() + 2).append('\'');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                quoted.append(String.format("\\u%04x", (int) c));
            } else {
                quoted.append(c);
            }
        }
        return quoted.append('\'').toString();
    }

    /**
     * The same error, its message prefixed with where it was found ({@code file:line}). A copy rather
     * than a wrapper, so callers catching ConfigException see key() and value() directly.
     */
    ConfigException locatedAt(String where) {
        ConfigException located = new ConfigException(key, value, where + ": " + getMessage(), getCause());
        located.setStackTrace(getStackTrace());
        return located;
    }
}
