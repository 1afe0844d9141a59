/**
 * Keys for encryption at rest ({@code commitlog_encryption: aes-gcm}): the {@link
 * dev.commitlog.crypto.KeyProvider} a node gives in {@code CommitLogOptions}, and a provider over
 * a PKCS12 keystore file, {@link dev.commitlog.crypto.KeyStoreKeyProvider}.
 */
package dev.commitlog.crypto;
