package dev.commitlog.bench.peer;

import dev.commitlog.bench.sut.Contender;
import java.util.List;
import java.util.function.Supplier;

/** The peer systems by their command-line names, in the default column order. */
public final class PeerCatalog {

    private record Entry(String name, Supplier<Contender> factory) {
    }

    private static final List<Entry> PEERS = List.of(
            new Entry(RocksDbPeer.NAME, RocksDbPeer::new),
            new Entry(FsyncEachPeer.NAME, FsyncEachPeer::new),
            new Entry(LockGroupPeer.NAME, LockGroupPeer::new),
            new Entry(ChronicleQueuePeer.NAME, ChronicleQueuePeer::new));

    private PeerCatalog() {
    }

    public static List<String> names() {
        return PEERS.stream().map(Entry::name).toList();
    }

    public static boolean exists(String name) {
        return PEERS.stream().anyMatch(e -> e.name().equals(name));
    }

    /** Creates the contender; for RocksDB this loads its native library. */
    public static Contender create(String name) {
        return PEERS.stream().filter(e -> e.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown peer " + name))
                .factory().get();
    }
}
