package dev.commitlog.raft;

/**
 * A node's power, as its storages see it: {@link #off} freezes the node at a crash image's instant,
 * {@link #dead} lets its frozen threads go so it can be shut down.
 *
 * <p>Every mutation of the node's log storage ({@link ObservedLogStorage}) and every save of its
 * Raft meta ({@link SimulatedMetaStorage}) passes the switch on its way in and on its way out.
 * While it is off, they wait; so from the moment it is switched off, the node tells JRaft of no
 * append, truncation or vote being done, and JRaft promises nothing more on their strength (a vote
 * is granted, an append acknowledged to the leader, an entry counted towards a commit, only once
 * the storage call returned). A crash image taken after {@link #off} therefore holds everything
 * the node ever promised, as a power loss at that instant would. Once {@link #dead}, the calls
 * return as failed (and the test has already closed the node's RPC server, so a failure JRaft
 * ignores reaches no peer).
 */
final class PowerSwitch implements ObservedLogStorage.Gate {
    private enum State { ON, OFF, DEAD }

    private State state = State.ON;

    /** True while the power is on; waits while it is off; false once dead. */
    @Override
    public synchronized boolean pass() {
        boolean interrupted = false;
        while (state == State.OFF) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return state == State.ON;
    }

    synchronized void off() {
        if (state == State.ON) {
            state = State.OFF;
        }
    }

    synchronized void dead() {
        state = State.DEAD;
        notifyAll();
    }

    synchronized boolean on() {
        return state == State.ON;
    }
}
