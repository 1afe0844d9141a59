package dev.commitlog.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UnitsTest {
    private static final ConfigKey DURATION_KEY = ConfigKey.COMMITLOG_SYNC_PERIOD;
    private static final ConfigKey SIZE_KEY = ConfigKey.COMMITLOG_SEGMENT_SIZE;

    @ParameterizedTest
    @CsvSource({
        "7ns, 7",
        "500us, 500000",
        "10000ms, 10000000000",
        "10s, 10000000000",
        "2m, 120000000000",
        "3h, 10800000000000",
        "1d, 86400000000000",
        "0ms, 0",
        "' 10ms ', 10000000",
    })
    void parsesEveryDurationUnit(String text, long nanos) {
        assertEquals(Duration.ofNanos(nanos), Units.parseDuration(DURATION_KEY, text));
    }

    @ParameterizedTest
    @CsvSource({
        "100B, 100",
        "512KiB, 524288",
        "32MiB, 33554432",
        "1GiB, 1073741824",
        "8GiB, 8589934592",
    })
    void parsesEverySizeUnit(String text, long bytes) {
        assertEquals(bytes, Units.parseSize(SIZE_KEY, text));
    }

    @ParameterizedTest
    @CsvSource({
        "10000ms, 10s",
        "1500ms, 1500ms",
        "90s, 90s",
        "120s, 2m",
        "1d, 1d",
        "1us, 1us",
        "1001ns, 1001ns",
        "0s, 0ms",
    })
    void formatsDurationsInTheLargestExactUnit(String text, String formatted) {
        assertEquals(formatted, Units.formatDuration(Units.parseDuration(DURATION_KEY, text)));
    }

    @ParameterizedTest
    @CsvSource({
        "33554432B, 32MiB",
        "1024MiB, 1GiB",
        "1536KiB, 1536KiB",
        "100B, 100B",
        "0B, 0B",
    })
    void formatsSizesInTheLargestExactUnit(String text, String formatted) {
        assertEquals(formatted, Units.formatSize(Units.parseSize(SIZE_KEY, text)));
    }

    @Test
    void formatsDurationsTooLongForNanosWithoutFailing() {
        assertEquals("PT2562047788015215H", Units.formatDuration(Duration.ofHours(2562047788015215L)));
    }

    @Test
    void durationErrorMatchesTheDocumentedMessage() {
        ConfigException e = assertThrows(ConfigException.class, () -> Units.parseDuration(DURATION_KEY, "10 seconds"));
        assertEquals("commitlog_sync_period: '10 seconds' is not a duration; expected a whole number followed by one of "
                + "ns, us, ms, s, m, h, d (e.g. 10000ms)", e.getMessage());
        assertEquals("commitlog_sync_period", e.key());
        assertEquals("10 seconds", e.value());
    }

    @Test
    void bareNumberDurationIsRejected() {
        assertDurationRejected("10000", "has no unit");
    }

    @Test
    void negativeDurationIsRejected() {
        assertDurationRejected("-10ms", "is negative");
    }

    @Test
    void fractionalDurationIsRejected() {
        assertDurationRejected("1.5s", "is not a whole number");
    }

    @ParameterizedTest
    @ValueSource(strings = {"10sec", "10S", "10µs", "5w"})
    void unknownDurationUnitIsRejected(String text) {
        assertDurationRejected(text, "has an unknown unit");
    }

    @ParameterizedTest
    @ValueSource(strings = {"106752d", "9223372036854775808ns", "99999999999999999999999s"})
    void overflowingDurationIsRejected(String text) {
        assertDurationRejected(text, "is too large");
    }

    @Test
    void largestDurationIsAccepted() {
        assertEquals(Duration.ofNanos(Long.MAX_VALUE), Units.parseDuration(DURATION_KEY, "9223372036854775807ns"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ms", "ten ms", "1e3ms", "+5ms", "10 ms"})
    void nonDurationIsRejected(String text) {
        assertDurationRejected(text, "is not a duration");
    }

    @Test
    void bareNumberSizeIsRejected() {
        assertSizeRejected("33554432", "has no unit");
    }

    @Test
    void negativeSizeIsRejected() {
        assertSizeRejected("-1MiB", "is negative");
    }

    @Test
    void fractionalSizeIsRejected() {
        assertSizeRejected("1.5GiB", "is not a whole number");
    }

    @ParameterizedTest
    @ValueSource(strings = {"32MB", "32mib", "1TiB", "32M", "100b"})
    void unknownSizeUnitIsRejected(String text) {
        assertSizeRejected(text, "has an unknown unit");
    }

    @ParameterizedTest
    @ValueSource(strings = {"8589934592GiB", "9223372036854775808B"})
    void overflowingSizeIsRejected(String text) {
        assertSizeRejected(text, "is too large");
    }

    private static void assertDurationRejected(String text, String problem) {
        ConfigException e = assertThrows(ConfigException.class, () -> Units.parseDuration(DURATION_KEY, text));
        assertMessage(e, DURATION_KEY, text, problem, "(e.g. 10000ms)");
    }

    private static void assertSizeRejected(String text, String problem) {
        ConfigException e = assertThrows(ConfigException.class, () -> Units.parseSize(SIZE_KEY, text));
        assertMessage(e, SIZE_KEY, text, problem, "(e.g. 32MiB)");
    }

    private static void assertMessage(ConfigException e, ConfigKey key, String text, String problem, String example) {
        String message = e.getMessage();
        assertTrue(message.startsWith(key + ": '" + text + "' " + problem), message);
        assertTrue(message.endsWith(example), message);
        assertEquals(key.toString(), e.key());
        assertEquals(text, e.value());
    }
}
