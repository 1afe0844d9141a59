package dev.commitlog.tools;

import dev.commitlog.crypto.KeyStoreKeyProvider;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.UnrecoverableKeyException;
import java.util.Arrays;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The keystore options every reading command takes (a picocli mixin), for logs written with
 * {@code commitlog_encryption: aes-gcm}. Checked, and the keystore loaded, before any segment file
 * is opened, so a wrong option is one clear line and exit code 2.
 *
 * <p>The password never comes from the command line, which {@code ps} shows to every user of the
 * machine: it is read from a file or from an environment variable (which only the process's own
 * user can read).
 */
final class KeyOptions {
    /** The line each reading command's help gives encrypted logs. */
    static final String HELP = "An encrypted log (commitlog_encryption: aes-gcm) needs --keystore and its password from a file or an "
            + "environment variable (no option takes the password itself: ps shows command lines to every user). A section under a key "
            + "id the keystore lacks stops the command with exit code 3, naming the id.";

    /** More than a passphrase needs: a larger file is not a password file (a keystore given by mistake, say). */
    static final int MAX_PASSWORD_FILE_BYTES = 1024;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--keystore", paramLabel = "FILE", description = "the PKCS12 keystore holding the log's AES keys, to read an "
            + "encrypted log (commitlog_encryption: aes-gcm); needs --keystore-password-file or --keystore-password-env")
    Path keystore;

    @Option(names = "--key-alias-prefix", paramLabel = "PREFIX", description = "the log's keys are the keystore entries named PREFIX<key id> "
            + "(default: ${DEFAULT-VALUE}, i.e. ${DEFAULT-VALUE}1, ${DEFAULT-VALUE}2, ...)")
    String aliasPrefix = KeyStoreKeyProvider.DEFAULT_ALIAS_PREFIX;

    @Option(names = "--keystore-password-file", paramLabel = "FILE", description = "read the keystore's password from FILE (its first "
            + "line; keep it readable by you alone). There is no option taking the password itself: ps shows command lines to every user")
    Path passwordFile;

    @Option(names = "--keystore-password-env", paramLabel = "VAR", description = "read the keystore's password from environment "
            + "variable VAR (only your user can read a process's environment)")
    String passwordVariable;

    private final Function<String, String> environment;

    KeyOptions(Function<String, String> environment) {
        this.environment = environment;
    }

    /**
     * The keys the options name: none when no option is given (plain and compressed logs need none).
     *
     * @throws ParameterException naming the option and what is wrong
     */
    ToolKeys keys() {
        if (keystore == null) {
            for (String option : new String[] {"--keystore-password-file", "--keystore-password-env", "--key-alias-prefix"}) {
                if (command.commandLine().getParseResult().hasMatchedOption(option)) {
                    throw refuse(option + " is given without --keystore FILE: it says how to read a keystore, and none is named");
                }
            }
            return new ToolKeys(null, null, aliasPrefix);
        }
        if (passwordFile != null && passwordVariable != null) {
            throw refuse("give the keystore's password once: --keystore-password-file or --keystore-password-env, not both");
        }
        if (passwordFile == null && passwordVariable == null) {
            throw refuse("--keystore " + keystore + " needs its password: --keystore-password-file FILE or --keystore-password-env VAR "
                    + "(never on the command line, where ps shows it)");
        }
        checkReadableFile("--keystore", keystore);
        if (size(keystore) == 0) {
            throw refuse("--keystore " + keystore + " is empty; expected a PKCS12 keystore");
        }
        char[] password = passwordFile != null ? PasswordFile.read(this, passwordFile) : fromEnvironment();
        try {
            return new ToolKeys(keystore, KeyStoreKeyProvider.load(keystore, password, aliasPrefix), aliasPrefix);
        } catch (FileSystemException e) {
            throw refuse("cannot read --keystore " + keystore + ": " + OneLineErrors.describe(e));
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw refuse("--keystore " + keystore + ": wrong password (the keystore's integrity check failed with it)");
            }
            // The JDK's reasons name DER tags and lengths, which tell an operator nothing more
            throw refuse("--keystore " + keystore + " is not a PKCS12 keystore (it does not parse as one)");
        } catch (GeneralSecurityException e) {
            throw refuse("--keystore " + keystore + ": cannot read its keys: " + OneLineErrors.describe(e));
        } catch (IllegalArgumentException e) {
            // no entry under the prefix, or one that is not a 256-bit AES key: the message names the aliases found
            throw refuse("--keystore " + OneLineErrors.describe(e) + " (--key-alias-prefix " + aliasPrefix + ")");
        } finally {
            Arrays.fill(password, '\0');
        }
    }

    private char[] fromEnvironment() {
        String value = environment.apply(passwordVariable);
        if (value == null) {
            throw refuse("--keystore-password-env " + passwordVariable + ": no such environment variable is set");
        }
        if (value.isEmpty()) {
            throw refuse("--keystore-password-env " + passwordVariable + ": the variable is empty; expected the keystore's password");
        }
        return value.toCharArray();
    }

    /** Refuses a path that is not a readable regular file, naming the option. */
    void checkReadableFile(String option, Path file) {
        if (!Files.exists(file)) {
            throw refuse(option + " " + file + ": no such file");
        }
        if (!Files.isRegularFile(file)) {
            throw refuse(option + " " + file + " is not a regular file");
        }
        if (!Files.isReadable(file)) {
            throw refuse(option + " " + file + " is not readable");
        }
    }

    long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw refuse("cannot read " + file + ": " + OneLineErrors.describe(e));
        }
    }

    ParameterException refuse(String message) {
        return new ParameterException(command.commandLine(), message);
    }
}
