package dev.commitlog.bench.pair;

import dev.commitlog.bench.UsageException;
import dev.commitlog.bench.sweep.SweepOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The command line as {@code --flag value} pairs; every flag but {@code --help} takes a value. */
public final class Flags {
    private final List<String> names = new ArrayList<>();
    private final List<String> values = new ArrayList<>();
    private final List<String> used = new ArrayList<>();

    public Flags(List<String> args) throws UsageException {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            int eq = arg.indexOf('=');
            if (arg.equals("--help") || arg.equals("-h")) {
                names.add(arg);
                values.add("");
            } else if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "'");
            } else if (eq > 0) {
                add(arg.substring(0, eq), arg.substring(eq + 1));
            } else if (i + 1 < args.size()) {
                add(arg, args.get(++i));
            } else {
                throw new UsageException(arg + " needs a value");
            }
        }
    }

    private void add(String name, String value) throws UsageException {
        if (names.contains(name)) {
            throw new UsageException(name + " is given twice");
        }
        names.add(name);
        values.add(value);
    }

    public boolean has(String name) {
        return names.contains(name);
    }

    public String value(String name) {
        used.add(name);
        return values.get(names.indexOf(name));
    }

    public String required(String name) throws UsageException {
        if (!has(name)) {
            throw new UsageException(name + " is required: name the two columns to compare");
        }
        return value(name);
    }

    public int integer(String name, int min, int max) throws UsageException {
        return SweepOptions.intIn(name, value(name), min, max);
    }

    public List<Integer> intList(String name, int min, int max) throws UsageException {
        List<Integer> out = new ArrayList<>();
        for (String part : value(name).split(",", -1)) {
            int n = SweepOptions.intIn(name, part.trim(), min, max);
            if (out.contains(n)) {
                throw new UsageException(name + ": " + n + " is listed twice");
            }
            out.add(n);
        }
        return List.copyOf(out);
    }

    public double positive(String name) throws UsageException {
        String v = value(name);
        try {
            double d = Double.parseDouble(v);
            if (Double.isFinite(d) && d > 0) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(name + ": '" + v + "' is not a number above 0");
    }

    public Duration seconds(String name) throws UsageException {
        String v = value(name);
        try {
            double s = Double.parseDouble(v);
            if (Double.isFinite(s) && s >= 0 && s <= 3600) {
                return Duration.ofNanos(Math.round(s * 1e9));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(name + ": '" + v + "' is not a number of seconds in 0..3600");
    }

    public Path path(String name) throws UsageException {
        String v = value(name);
        if (v.isBlank()) {
            throw new UsageException(name + ": empty path");
        }
        return Path.of(v);
    }

    public void rejectUnused() throws UsageException {
        for (String name : names) {
            if (!used.contains(name)) {
                throw new UsageException("unknown argument " + name);
            }
        }
    }
}
