package dev.commitlog.bench.sut;

import dev.commitlog.crypto.KeyProvider;
import java.security.SecureRandom;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/** One 256-bit AES key, id 1, drawn when the benchmark starts: what the encrypting columns write under. */
public final class RunKey implements KeyProvider {
    public static final RunKey INSTANCE = new RunKey();

    private final SecretKey key;

    private RunKey() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        key = new SecretKeySpec(bytes, "AES");
    }

    @Override
    public int currentKeyId() {
        return 1;
    }

    @Override
    public SecretKey key(int keyId) {
        return keyId == 1 ? key : null;
    }
}
