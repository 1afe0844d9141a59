package dev.commitlog.section;

import dev.commitlog.crypto.KeyProvider;
import java.util.Random;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/** A key provider for tests: keys 1..n, each 32 bytes from a seeded generator, the highest current. */
final class TestKeys implements KeyProvider {
    private final SecretKey[] keys;

    TestKeys(long seed, int count) {
        Random random = new Random(seed);
        keys = new SecretKey[count];
        for (int i = 0; i < count; i++) {
            byte[] key = new byte[32];
            random.nextBytes(key);
            keys[i] = new SecretKeySpec(key, "AES");
        }
    }

    @Override
    public int currentKeyId() {
        return keys.length;
    }

    @Override
    public SecretKey key(int keyId) {
        return keyId >= 1 && keyId <= keys.length ? keys[keyId - 1] : null;
    }
}
