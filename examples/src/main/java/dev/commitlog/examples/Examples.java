package dev.commitlog.examples;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runnable jar's entry: {@code java -jar examples/target/commitlog-examples.jar NAME [DIR]} runs
 * the example {@code NAME} (its class's {@code main}) with the optional directory. The jar's
 * manifest carries the JVM flags Chronicle Bytes needs and the class path ({@code target/lib}).
 */
public final class Examples {
    /** A class's {@code main}. */
    @FunctionalInterface
    interface Main {
        void run(String[] args) throws Exception;
    }

    /** Every example, by the name the command takes (the order examples/README.md lists them in). */
    static final Map<String, Main> ALL = new LinkedHashMap<>();

    static {
        ALL.put("key-value", KeyValueStore::main);
        ALL.put("typed-records", TypedRecords::main);
        ALL.put("async-appends", AsyncAppends::main);
        ALL.put("replica", ReplicaFeed::main);
        ALL.put("raft", RaftGroup::main);
        ALL.put("micrometer", MicrometerMetrics::main);
    }

    private Examples() {
    }

    public static void main(String[] args) throws Exception {
        Main example = args.length == 0 ? null : ALL.get(args[0]);
        if (example == null) {
            System.err.println((args.length == 0 ? "no example named" : "no example named " + args[0]) + "; usage: java -jar "
                    + "commitlog-examples.jar NAME [DIR], NAME one of " + String.join(", ", ALL.keySet())
                    + " (DIR: where the example works; default: a temporary directory, deleted afterwards)");
            System.exit(2);
        }
        example.run(Arrays.copyOfRange(args, 1, args.length));
    }
}
