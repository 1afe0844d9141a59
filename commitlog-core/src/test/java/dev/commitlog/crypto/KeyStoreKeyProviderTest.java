package dev.commitlog.crypto;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Map;
import java.util.Random;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link KeyStoreKeyProvider}: the log's keys by alias prefix and id, the highest id current, clear errors. */
class KeyStoreKeyProviderTest {
    private static final char[] PASSWORD = "changeit".toCharArray();

    @TempDir
    Path dir;

    @Test
    void keysByIdAndTheHighestIsCurrent() throws Exception {
        SecretKey one = aes(32, 1);
        SecretKey two = aes(32, 2);
        SecretKey twelve = aes(32, 12);
        Path file = keystore(Map.of("commitlog-1", one, "commitlog-12", twelve, "commitlog-2", two, "other-7", aes(32, 7),
                "commitlog-01", aes(32, 9), "commitlog-x", aes(32, 10)));
        KeyStoreKeyProvider keys = KeyStoreKeyProvider.load(file, PASSWORD, "commitlog-");
        assertEquals(12, keys.currentKeyId());
        assertArrayEquals(new int[] {1, 2, 12}, keys.keyIds(), "other prefixes, leading zeros and non-digits are not the log's");
        assertArrayEquals(one.getEncoded(), keys.key(1).getEncoded());
        assertArrayEquals(two.getEncoded(), keys.key(2).getEncoded());
        assertArrayEquals(twelve.getEncoded(), keys.key(12).getEncoded());
        assertNull(keys.key(3));
        assertNull(keys.key(0));
        assertNull(keys.key(-1));
        assertEquals("AES", keys.key(1).getAlgorithm());
    }

    @Test
    void noKeyOfTheLogNamesThePrefixAndTheAliasesFound() throws Exception {
        Path file = keystore(Map.of("other-1", aes(32, 1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KeyStoreKeyProvider.load(file, PASSWORD, "commitlog-"));
        assertTrue(e.getMessage().startsWith(file + ": no key under an alias commitlog-<id>"), e.getMessage());
        assertTrue(e.getMessage().contains("other-1"), e.getMessage());
    }

    @Test
    void aKeyThatIsNotAes256IsRefused() throws Exception {
        Path file = keystore(Map.of("commitlog-1", aes(16, 1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KeyStoreKeyProvider.load(file, PASSWORD, "commitlog-"));
        assertTrue(e.getMessage().endsWith("entry commitlog-1 holds AES 128-bit key; expected a 256-bit AES secret key"), e.getMessage());
    }

    @Test
    void aWrongPasswordFailsToLoad() throws Exception {
        Path file = keystore(Map.of("commitlog-1", aes(32, 1)));
        assertThrows(IOException.class, () -> KeyStoreKeyProvider.load(file, "wrong".toCharArray(), "commitlog-"));
    }

    private Path keystore(Map<String, SecretKey> entries) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        for (Map.Entry<String, SecretKey> entry : entries.entrySet()) {
            store.setEntry(entry.getKey(), new KeyStore.SecretKeyEntry(entry.getValue()), new KeyStore.PasswordProtection(PASSWORD));
        }
        Path file = dir.resolve("keys-" + entries.hashCode() + ".p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, PASSWORD);
        }
        return file;
    }

    private static SecretKey aes(int bytes, long seed) {
        byte[] key = new byte[bytes];
        new Random(seed).nextBytes(key);
        return new SecretKeySpec(key, "AES");
    }
}
