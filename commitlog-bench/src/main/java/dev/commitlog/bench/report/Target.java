package dev.commitlog.bench.report;

/**
 * One target from the brief, as measured in this run.
 *
 * @param name     what is compared
 * @param measured the measured figure(s), already formatted
 * @param floor    the target, formatted ({@code >= 0.95})
 * @param verdict  {@code met}, {@code MISSED}, or {@code not measured: why}
 */
public record Target(String name, String measured, String floor, String verdict) {

    static Target judged(String name, String measured, String floor, boolean met) {
        return new Target(name, measured, floor, met ? "met" : "MISSED");
    }

    static Target notMeasured(String name, String floor, String why) {
        return new Target(name, "-", floor, "not measured: " + why);
    }
}
