package dev.commitlog.raft.bench;

import com.alipay.sofa.jraft.Closure;
import com.alipay.sofa.jraft.Iterator;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.core.StateMachineAdapter;

/**
 * The trivial state machine every contender runs: it counts the operations applied and acknowledges
 * each task on the node that proposed it (JRaft hands a closure only there), so the benchmark
 * measures the log and replication, not the state machine.
 */
final class AckingStateMachine extends StateMachineAdapter {
    /** Written by JRaft's single FSM caller thread of this node only; read for diagnostics. */
    private volatile long applied;

    @Override
    public void onApply(Iterator iter) {
        long count = applied;
        while (iter.hasNext()) {
            count++;
            Closure done = iter.done();
            if (done != null) {
                done.run(Status.OK());
            }
            iter.next();
        }
        applied = count;
    }

    long applied() {
        return applied;
    }
}
