package dev.commitlog.crypto;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * Keys from a PKCS12 keystore file, read once when it is loaded. The log's keys are the secret-key
 * entries whose alias is a prefix followed by the key id in decimal ({@code commitlog-1},
 * {@code commitlog-2}, ...); the current key is the one with the highest id, so a key is rotated by
 * adding an entry with a higher id (with {@code keytool -genseckey -keyalg AES -keysize 256
 * -storetype PKCS12 -alias commitlog-2 ...}) and reloading. Entries under other aliases are ignored;
 * every entry of the log's must be a 256-bit AES key, protected by the keystore's password.
 * Immutable and thread-safe; a lookup allocates nothing.
 */
public final class KeyStoreKeyProvider implements KeyProvider {
    /** The alias prefix the documentation and the tool use unless told otherwise: aliases {@code commitlog-1}, {@code commitlog-2}, ... */
    public static final String DEFAULT_ALIAS_PREFIX = "commitlog-";

    private final int[] ids;
    private final SecretKey[] keys;

    private KeyStoreKeyProvider(int[] ids, SecretKey[] keys) {
        this.ids = ids;
        this.keys = keys;
    }

    /**
     * @param keystore    a PKCS12 file
     * @param password    the keystore's password, also the key entries'; the caller may clear it afterwards
     * @param aliasPrefix what each of the log's aliases starts with before its id (compared case-insensitively,
     *                    as PKCS12 aliases are), e.g. {@code "commitlog-"}
     * @return the keys found
     * @throws IOException              if the file cannot be read, or the password is wrong
     * @throws GeneralSecurityException if the keystore cannot be loaded or an entry's key recovered
     * @throws IllegalArgumentException naming the file and what was expected, if it holds none of the
     *                                  log's keys, or one that is not a 256-bit AES key
     */
    public static KeyStoreKeyProvider load(Path keystore, char[] password, String aliasPrefix) throws IOException, GeneralSecurityException {
        Objects.requireNonNull(keystore, "keystore");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(aliasPrefix, "aliasPrefix");
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, password);
        }
        String prefix = aliasPrefix.toLowerCase(Locale.ROOT);
        List<Integer> found = new ArrayList<>();
        List<String> aliases = Collections.list(store.aliases());
        for (String alias : aliases) {
            Integer id = idOf(alias.toLowerCase(Locale.ROOT), prefix);
            if (id != null) {
                found.add(id);
            }
        }
        if (found.isEmpty()) {
            throw new IllegalArgumentException(keystore + ": no key under an alias " + aliasPrefix + "<id> (id 1 or more, e.g. "
                    + aliasPrefix + "1); aliases found: " + aliases);
        }
        Collections.sort(found);
        int[] ids = new int[found.size()];
        SecretKey[] keys = new SecretKey[found.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = found.get(i);
            String alias = aliasFor(aliases, prefix, ids[i]);
            keys[i] = aes256(keystore, alias, store.getKey(alias, password));
        }
        return new KeyStoreKeyProvider(ids, keys);
    }

    @Override
    public int currentKeyId() {
        return ids[ids.length - 1];
    }

    @Override
    public SecretKey key(int keyId) {
        int i = Arrays.binarySearch(ids, keyId);
        return i >= 0 ? keys[i] : null;
    }

    /** The ids this provider holds, ascending. */
    public int[] keyIds() {
        return ids.clone();
    }

    /** The id after the prefix, or null when the alias is not one of the log's. */
    private static Integer idOf(String alias, String prefix) {
        if (!alias.startsWith(prefix) || alias.length() == prefix.length() || alias.length() - prefix.length() > 10) {
            return null;
        }
        String digits = alias.substring(prefix.length());
        if (!digits.chars().allMatch(c -> c >= '0' && c <= '9') || digits.startsWith("0")) {
            return null;
        }
        long id = Long.parseLong(digits);
        return id <= Integer.MAX_VALUE ? (int) id : null;
    }

    private static String aliasFor(List<String> aliases, String prefix, int id) {
        for (String alias : aliases) {
            Integer aliasId = idOf(alias.toLowerCase(Locale.ROOT), prefix);
            if (aliasId != null && aliasId == id) {
                return alias;
            }
        }
        throw new IllegalStateException("alias of key id " + id + " vanished");
    }

    private static SecretKey aes256(Path keystore, String alias, Key key) {
        if (!(key instanceof SecretKey) || !"AES".equalsIgnoreCase(key.getAlgorithm()) || key.getEncoded() == null
                || key.getEncoded().length != 32) {
            String what = key == null ? "no key" : key.getAlgorithm() + " " + (key.getEncoded() == null ? "?" : key.getEncoded().length * 8) + "-bit key";
            throw new IllegalArgumentException(keystore + ": entry " + alias + " holds " + what + "; expected a 256-bit AES secret key");
        }
        return new SecretKeySpec(key.getEncoded(), "AES");
    }
}
