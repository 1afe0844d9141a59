package dev.commitlog.crypto;

import javax.crypto.SecretKey;

/**
 * The keys an encrypted log is written and read with. Each section names the id of the key it was
 * encrypted under, so keys can rotate: new sections use {@link #currentKeyId()}, and older sections
 * are read with the key their id names for as long as the provider still has it.
 *
 * <p>Keys are 256-bit AES keys ({@code getAlgorithm()} "AES", 32 encoded bytes). Ids are 1 or more
 * (0 marks a section that is not encrypted). Called from the log's flushing and reading threads, so
 * an implementation must be thread-safe; the log remembers the last key it used per thread, so a
 * lookup happens when the id changes, not per section.
 */
public interface KeyProvider {
    /** The id of the key new sections are encrypted under; at least 1. */
    int currentKeyId();

    /**
     * @param keyId an id read from a section, or {@link #currentKeyId()}
     * @return the key with that id, or null when this provider has none (a section under an unknown
     *         key cannot be read; the log reports it and never takes it for damage)
     */
    SecretKey key(int keyId);
}
