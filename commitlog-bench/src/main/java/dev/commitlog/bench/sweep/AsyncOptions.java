package dev.commitlog.bench.sweep;

import java.util.List;

/**
 * The asynchronous section of the sweep: {@code appendAsync} from a few submitting threads, each
 * keeping up to {@code inFlight} appends outstanding.
 *
 * @param submitters submitting thread counts, one row each; empty skips the section
 * @param inFlight   appends one submitting thread keeps outstanding before it waits for a completion
 * @param modes      commit-log sync modes measured (never periodic: it completes only at its period)
 */
public record AsyncOptions(List<Integer> submitters, int inFlight, List<String> modes) {

    public static final List<Integer> DEFAULT_SUBMITTERS = List.of(1, 4);
    public static final int DEFAULT_IN_FLIGHT = 4096;
    public static final List<String> DEFAULT_MODES = List.of("batch", "adaptive");

    public boolean enabled() {
        return !submitters.isEmpty() && !modes.isEmpty();
    }
}
