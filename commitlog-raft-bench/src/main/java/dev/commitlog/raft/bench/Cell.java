package dev.commitlog.raft.bench;

/** One point of the grid; every contender is measured at it. */
record Cell(int replicas, int payload, int groups, int inflight) {
    @Override
    public String toString() {
        return "replicas=" + replicas + " payload=" + payload + " groups=" + groups + " inflight=" + inflight;
    }
}
