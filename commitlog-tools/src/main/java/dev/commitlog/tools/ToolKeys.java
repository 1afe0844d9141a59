package dev.commitlog.tools;

import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.crypto.KeyStoreKeyProvider;
import dev.commitlog.disk.MappedStorageLayer;
import dev.commitlog.repair.LogInspector;
import dev.commitlog.repair.LogTruncator;
import dev.commitlog.section.MissingKeyException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.crypto.SecretKey;

/**
 * The engine's {@link LogInspector} with the keys a command was given ({@link KeyOptions}), and
 * what the tool says when a section names a key id it does not have: the id, and the option that
 * would supply it. The engine's own message points a program at {@code CommitLogOptions}; an
 * operator needs {@code --keystore}.
 *
 * <p>As the inspector's {@link KeyProvider} it remembers the last id it was asked for and did not
 * have; a command reads on one thread.
 */
final class ToolKeys implements KeyProvider {
    private final Path keystore;
    private final KeyStoreKeyProvider keys;
    private final String aliasPrefix;
    private final LogInspector inspector = new LogInspector(this);
    private int missingKeyId;

    /** {@code keystore} and {@code keys} are null when no keystore was given. */
    ToolKeys(Path keystore, KeyStoreKeyProvider keys, String aliasPrefix) {
        this.keystore = keystore;
        this.keys = keys;
        this.aliasPrefix = aliasPrefix;
    }

    /**
     * The keystore's highest key id: {@code truncate-after} encrypts the section its cut falls in
     * again under it. Asked only after a section was decrypted, so a keystore was given.
     */
    @Override
    public int currentKeyId() {
        if (keys == null) {
            throw new IllegalStateException("no keystore was given: add --keystore FILE to cut an encrypted log");
        }
        return keys.currentKeyId();
    }

    @Override
    public SecretKey key(int keyId) {
        SecretKey key = keys == null ? null : keys.key(keyId);
        if (key == null) {
            missingKeyId = keyId;
        }
        return key;
    }

    /** {@link LogInspector#walk}, with a missing key told in the tool's terms. */
    LogInspector.Summary walk(Path directory, long from, ReplayPolicy policy, LogInspector.Observer observer) throws IOException {
        try {
            return inspector.walk(directory, from, policy, observer);
        } catch (MissingKeyException e) {
            throw missingKey(e);
        }
    }

    /** {@link LogTruncator#truncateAfter} with these keys, with a missing key told in the tool's terms. */
    LogTruncator.Result truncateAfter(Path directory, long position, Path backup) throws IOException {
        try {
            return new LogTruncator(new MappedStorageLayer(), this).truncateAfter(directory, position, backup);
        } catch (MissingKeyException e) {
            throw missingKey(e);
        }
    }

    /** {@link LogInspector#segments}: headers only, which are never encrypted. */
    List<LogInspector.SegmentInfo> segments(Path directory) throws IOException {
        return inspector.segments(directory);
    }

    private IOException missingKey(MissingKeyException e) {
        int keyId = missingKeyId;
        String alias = aliasPrefix + keyId;
        String where = e.file().getFileName() + ", the section at file offset " + e.fileOffset();
        String advice = keys == null
                ? "no keystore was given: add --keystore FILE (a PKCS12 keystore with entry " + alias + ") and --keystore-password-file "
                        + "FILE or --keystore-password-env VAR"
                : "keystore " + keystore + " has no entry " + alias + " (it holds key ids " + Arrays.toString(keys.keyIds())
                        + " under " + aliasPrefix + "<id>): give --keystore a keystore holding key id " + keyId
                        + ", or --key-alias-prefix the prefix its entries use";
        return new IOException(where + ": encrypted under key id " + keyId + ", which the tool cannot read: " + advice
                + "; nothing was changed", e);
    }
}
