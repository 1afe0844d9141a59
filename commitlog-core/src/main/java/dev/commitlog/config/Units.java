package dev.commitlog.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations and sizes written with units, as in Cassandra 4.1: {@code 10000ms}, {@code 32MiB}.
 *
 * <p>A unit is required: a bare {@code 10000} could be milliseconds or seconds, and guessing wrong
 * changes durability by orders of magnitude. Values are whole numbers, so a value always converts
 * exactly to nanoseconds or bytes, and must fit in a {@code long} of those.
 */
final class Units {
    static final String DURATION_EXPECTED =
            "expected a whole number followed by one of ns, us, ms, s, m, h, d (e.g. 10000ms)";
    static final String SIZE_EXPECTED =
            "expected a whole number followed by one of B, KiB, MiB, GiB (e.g. 32MiB)";

    /** Largest first, so formatting picks the largest unit that divides the value exactly. */
    private static final Map<String, Long> NANOS_PER_UNIT = new LinkedHashMap<>();
    private static final Map<String, Long> BYTES_PER_UNIT = new LinkedHashMap<>();

    static {
        NANOS_PER_UNIT.put("d", 86_400_000_000_000L);
        NANOS_PER_UNIT.put("h", 3_600_000_000_000L);
        NANOS_PER_UNIT.put("m", 60_000_000_000L);
        NANOS_PER_UNIT.put("s", 1_000_000_000L);
        NANOS_PER_UNIT.put("ms", 1_000_000L);
        NANOS_PER_UNIT.put("us", 1_000L);
        NANOS_PER_UNIT.put("ns", 1L);
        BYTES_PER_UNIT.put("GiB", 1L << 30);
        BYTES_PER_UNIT.put("MiB", 1L << 20);
        BYTES_PER_UNIT.put("KiB", 1L << 10);
        BYTES_PER_UNIT.put("B", 1L);
    }

    private static final Pattern NUMBER_UNIT = Pattern.compile("([0-9]+)(\\p{L}*)");
    private static final Pattern FRACTION = Pattern.compile("[0-9]*[.,][0-9]+\\p{L}*");

    private Units() {
    }

    static Duration parseDuration(ConfigKey key, String text) {
        return Duration.ofNanos(parse(key, text, NANOS_PER_UNIT, "a duration", DURATION_EXPECTED));
    }

    static long parseSize(ConfigKey key, String text) {
        return parse(key, text, BYTES_PER_UNIT, "a size", SIZE_EXPECTED);
    }

    /** {@code 10s}, {@code 1500ms}: the largest unit that represents the value exactly. */
    static String formatDuration(Duration duration) {
        long nanos;
        try {
            nanos = duration.toNanos();
        } catch (ArithmeticException tooLarge) {
            return duration.toString(); // only seen in messages rejecting such a value
        }
        return format(nanos, NANOS_PER_UNIT, "ms");
    }

    /** {@code 32MiB}, {@code 100B}: the largest binary unit that represents the value exactly. */
    static String formatSize(long bytes) {
        return format(bytes, BYTES_PER_UNIT, "B");
    }

    private static long parse(ConfigKey key, String text, Map<String, Long> units, String what, String expected) {
        String trimmed = text.strip();
        Matcher matcher = NUMBER_UNIT.matcher(trimmed);
        if (!matcher.matches()) {
            // Name the common mistakes; anything else is simply not a value of this kind.
            String problem = trimmed.startsWith("-") ? "is negative"
                    : FRACTION.matcher(trimmed).matches() ? "is not a whole number"
                    : "is not " + what;
            throw ConfigException.invalid(key, text, problem + "; " + expected);
        }
        String unit = matcher.group(2);
        if (unit.isEmpty()) {
            throw ConfigException.invalid(key, text, "has no unit; " + expected);
        }
        Long factor = units.get(unit);
        if (factor == null) {
            throw ConfigException.invalid(key, text, "has an unknown unit '" + unit + "'; " + expected);
        }
        try {
            return Math.multiplyExact(Long.parseLong(matcher.group(1)), factor);
        } catch (NumberFormatException | ArithmeticException overflow) {
            throw ConfigException.invalid(key, text, "is too large to represent; " + expected);
        }
    }

    private static String format(long value, Map<String, Long> units, String zeroUnit) {
        if (value == 0) {
            return "0" + zeroUnit;
        }
        for (Map.Entry<String, Long> unit : units.entrySet()) {
            if (value % unit.getValue() == 0) {
                return value / unit.getValue() + unit.getKey();
            }
        }
        throw new AssertionError("the smallest unit is 1");
    }
}
