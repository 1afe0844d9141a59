package dev.commitlog.tools;

import dev.commitlog.config.ReplayPolicy;
import dev.commitlog.crypto.KeyProvider;
import dev.commitlog.crypto.KeyStoreKeyProvider;
import dev.commitlog.repair.LogInspector;
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

    /** Never asked: the tool writes no section. */
    @Override
    public int currentKeyId() {
        throw new UnsupportedOperationException("commitlog-tools reads logs and encrypts nothing");
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
