package dev.commitlog.section;

import dev.commitlog.crypto.KeyProvider;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * AES-256-GCM over section bodies, with one JDK {@link Cipher} kept for every section (AES-NI and
 * the GHASH intrinsic where the CPU has them). Remembers the last key it was given, so the
 * {@link KeyProvider} is asked only when the key id changes. Confined to one thread.
 *
 * <p>Each section re-initialises the cipher with its own nonce. The JDK's init takes a new
 * {@link GCMParameterSpec} and builds its GCM state anew: about 1 KB allocated per section each way
 * (JDK 17 and 25), whatever the section's size; the JDK offers no way to set a GCM nonce without
 * that. Bodies go through heap arrays this class keeps: with direct buffers the JDK allocated
 * about 3 KB per section at 64 KiB and 13 KB at 1 MiB (JDK 17), in temporary arrays.
 */
final class SectionCipher {
    private final Cipher cipher;
    private final KeyProvider keys;
    private int keyId;
    private SecretKey key;
    /** Heap staging: the JDK's GCM allocates per call for direct buffers (temporary arrays, more with size), not for arrays. */
    private byte[] in = new byte[0];
    private byte[] out = new byte[0];

    SectionCipher(KeyProvider keys) {
        this.keys = keys;
        try {
            this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
        } catch (NoSuchAlgorithmException | NoSuchPaddingException e) {
            throw new IllegalStateException("this JVM has no AES/GCM/NoPadding cipher", e);
        }
    }

    /** The key under {@code id}, or null when the provider has none. */
    SecretKey key(int id) {
        if (id != keyId || key == null) {
            SecretKey found = keys.key(id);
            if (found == null) {
                return null;
            }
            checkAes256(id, found);
            keyId = id;
            key = found;
        }
        return key;
    }

    /**
     * Encrypts {@code src[from, from + length)} into {@code dst} at {@code dstAt}, authenticating
     * {@code aad[0, aadLength)} too; returns the bytes written (the ciphertext and the tag).
     */
    int encrypt(SecretKey key, byte[] nonce, byte[] aad, int aadLength, ByteBuffer src, int from, int length, ByteBuffer dst, int dstAt) {
        byte[] in = in(length);
        byte[] out = out(length + SectionDescriptor.TAG_LENGTH);
        src.get(from, in, 0, length);
        try {
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(SectionDescriptor.TAG_LENGTH * 8, nonce));
            cipher.updateAAD(aad, 0, aadLength);
            int n = cipher.doFinal(in, 0, length, out, 0);
            dst.put(dstAt, out, 0, n);
            return n;
        } catch (GeneralSecurityException e) {
            // Sizes are checked before, and the key when it was fetched: nothing here depends on input
            throw new IllegalStateException("AES-GCM encryption failed: " + e, e);
        }
    }

    /**
     * Decrypts and verifies {@code src[from, from + length)} (ciphertext and tag) into {@code dst} at
     * {@code dstAt}; returns false, having written nothing into {@code dst}, when the tag does not verify.
     */
    boolean decrypt(SecretKey key, byte[] nonce, byte[] aad, int aadLength, ByteBuffer src, int from, int length, ByteBuffer dst, int dstAt) {
        byte[] in = in(length);
        byte[] out = out(length);
        src.get(from, in, 0, length);
        try {
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(SectionDescriptor.TAG_LENGTH * 8, nonce));
            cipher.updateAAD(aad, 0, aadLength);
            int n = cipher.doFinal(in, 0, length, out, 0);
            dst.put(dstAt, out, 0, n);
            return true;
        } catch (AEADBadTagException e) {
            return false;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM decryption failed: " + e, e);
        }
    }

    private byte[] in(int length) {
        if (in.length < length) {
            in = new byte[Math.max(length, Math.min(2 * in.length, Integer.MAX_VALUE / 2))];
        }
        return in;
    }

    private byte[] out(int length) {
        if (out.length < length) {
            out = new byte[Math.max(length, Math.min(2 * out.length, Integer.MAX_VALUE / 2))];
        }
        return out;
    }

    private static void checkAes256(int id, SecretKey key) {
        byte[] encoded = key.getEncoded();
        if (!"AES".equalsIgnoreCase(key.getAlgorithm()) || encoded == null || encoded.length != SectionDescriptor.KEY_LENGTH) {
            throw new IllegalStateException("the KeyProvider's key " + id + " is " + key.getAlgorithm() + " of "
                    + (encoded == null ? "unknown length" : encoded.length * 8 + " bits") + "; expected a 256-bit AES key");
        }
    }

}
