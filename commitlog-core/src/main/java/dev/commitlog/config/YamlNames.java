package dev.commitlog.config;

import java.util.Locale;
import java.util.StringJoiner;

/**
 * The one place that maps enum constants to and from their YAML names: the constant name in lower
 * case ({@code TOLERATE_TAIL <-> tolerate_tail}), except {@link Encryption}'s, which are the
 * algorithms' usual names ({@code AES_GCM <-> aes-gcm}). Parsing is exact, so the file has one
 * spelling.
 */
final class YamlNames {
    private YamlNames() {
    }

    static String of(Enum<?> constant) {
        if (constant instanceof Encryption) {
            return ((Encryption) constant).yamlName();
        }
        return constant.name().toLowerCase(Locale.ROOT);
    }

    static <E extends Enum<E>> E parse(ConfigKey key, String text, Class<E> type) {
        for (E constant : type.getEnumConstants()) {
            if (of(constant).equals(text)) {
                return constant;
            }
        }
        throw ConfigException.invalid(key, text, "is not one of " + allowed(type) + " (e.g. " + key.example + ")");
    }

    /** {@code periodic | batch | group}, as the YAML file documents the choices. */
    static String allowed(Class<? extends Enum<?>> type) {
        StringJoiner joiner = new StringJoiner(" | ");
        for (Enum<?> constant : type.getEnumConstants()) {
            joiner.add(of(constant));
        }
        return joiner.toString();
    }
}
