package dev.commitlog.config;

/**
 * How flushed sections are encrypted ({@code commitlog_encryption}). YAML names:
 * {@code none | aes-gcm}. The keys come from the {@code KeyProvider} given in code
 * ({@code CommitLogOptions}), never from YAML. Parsed and checked, but not yet acted on:
 * {@code CommitLog.open} refuses a setting other than {@code none}.
 */
public enum Encryption {
    /** Segments are not encrypted. */
    NONE("none"),
    /** AES-256 in Galois/Counter mode from the JDK: each section encrypted and authenticated on its own. */
    AES_GCM("aes-gcm");

    private final String yamlName;

    Encryption(String yamlName) {
        this.yamlName = yamlName;
    }

    /** The YAML spelling, the algorithm's usual name rather than the constant's. */
    String yamlName() {
        return yamlName;
    }
}
