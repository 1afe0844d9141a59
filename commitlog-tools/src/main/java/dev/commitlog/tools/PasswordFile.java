package dev.commitlog.tools;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads {@code --keystore-password-file}: the password is the file's first line, in UTF-8, without
 * its line end (so that {@code echo secret > file} and an editor's final newline work). The bytes
 * read are cleared once decoded; the caller clears the password.
 */
final class PasswordFile {
    private static final String OPTION = "--keystore-password-file";

    private PasswordFile() {
    }

    static char[] read(KeyOptions options, Path file) {
        options.checkReadableFile(OPTION, file);
        long size = options.size(file);
        if (size > KeyOptions.MAX_PASSWORD_FILE_BYTES) {
            throw options.refuse(OPTION + " " + file + " holds " + size + " bytes; a password file holds one line of at most "
                    + KeyOptions.MAX_PASSWORD_FILE_BYTES + " bytes (is it the keystore?)");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw options.refuse("cannot read " + OPTION + " " + file + ": " + OneLineErrors.describe(e));
        }
        try {
            int end = 0;
            while (end < bytes.length && bytes[end] != '\n' && bytes[end] != '\r') {
                end++;
            }
            if (end == 0) {
                throw options.refuse(OPTION + " " + file + (bytes.length == 0 ? " is empty" : "'s first line is empty")
                        + "; expected the keystore's password on its first line");
            }
            return decode(options, file, bytes, end);
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }

    private static char[] decode(KeyOptions options, Path file, byte[] bytes, int length) {
        CharBuffer chars;
        try {
            chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, 0, length));
        } catch (CharacterCodingException e) {
            throw options.refuse(OPTION + " " + file + ": its first line is not UTF-8 text; expected the keystore's password");
        }
        char[] password = new char[chars.remaining()];
        chars.get(password);
        Arrays.fill(chars.array(), '\0');
        return password;
    }
}
