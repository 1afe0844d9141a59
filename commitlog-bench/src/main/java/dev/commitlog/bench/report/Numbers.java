package dev.commitlog.bench.report;

import java.util.Locale;

/** Number formatting shared by the reports; NaN (not measured) prints as the given blank. */
public final class Numbers {

    private Numbers() {
    }

    public static String fixed(double value, int decimals) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** Thousands separators for a human table, as in the CASSANDRA-13530 table. */
    public static String grouped(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
    }

    /** A latency in microseconds: sub-microsecond values keep two decimals. */
    public static String micros(double us) {
        if (Double.isNaN(us)) {
            return "-";
        }
        return us < 10 ? String.format(Locale.ROOT, "%.2f", us) : String.format(Locale.ROOT, "%,.0f", us);
    }

    public static String ratio(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }
}
