package dev.commitlog.config;

import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code commitlog_file_mode}: an octal mode string as chmod takes it ({@code "0600"}) to and from
 * POSIX permissions. Only the syntax is checked here; which modes are allowed is a rule of the
 * configuration, checked by {@link ConfigRules} for both YAML and builder.
 */
final class FileMode {
    static final String EXPECTED =
            "expected three octal digits, optionally after a 0 or 0o, as chmod takes them (e.g. \"0600\")";

    /** Setuid, setgid and sticky digits are not accepted: PosixFilePermission cannot express them. */
    private static final Pattern OCTAL = Pattern.compile("(?:0o?)?([0-7]{3})");

    /** PosixFilePermission declares owner, group, others x read, write, execute: bit 8 down to 0. */
    private static final PosixFilePermission[] BY_BIT = PosixFilePermission.values();

    private FileMode() {
    }

    static Set<PosixFilePermission> parse(ConfigKey key, String text) {
        var matcher = OCTAL.matcher(text.strip());
        if (!matcher.matches()) {
            throw ConfigException.invalid(key, text, "is not a file mode; " + EXPECTED);
        }
        int bits = Integer.parseInt(matcher.group(1), 8);
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        for (int i = 0; i < BY_BIT.length; i++) {
            if ((bits & (1 << (BY_BIT.length - 1 - i))) != 0) {
                permissions.add(BY_BIT[i]);
            }
        }
        return permissions;
    }

    /** {@code 0600}: four digits, as commitlog.yaml writes it. */
    static String format(Set<PosixFilePermission> permissions) {
        int bits = 0;
        for (PosixFilePermission permission : permissions) {
            bits |= 1 << (BY_BIT.length - 1 - permission.ordinal());
        }
        return String.format("0%03o", bits);
    }
}
