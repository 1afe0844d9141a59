package dev.commitlog.examples;

import com.alipay.sofa.jraft.Closure;
import com.alipay.sofa.jraft.Iterator;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.core.StateMachineAdapter;
import java.nio.ByteBuffer;

/**
 * The state machine of {@link RaftGroup}: each operation is a {@code long} added to a sum. Every
 * node applies the committed operations in log order, so every node ends with the same count and sum.
 */
final class CounterStateMachine extends StateMachineAdapter {
    private volatile long applied;
    private volatile long sum;

    @Override
    public void onApply(Iterator iter) {
        while (iter.hasNext()) {
            ByteBuffer data = iter.getData();
            sum += data.getLong(data.position()); // one thread applies: the FSM caller's
            applied++;
            Closure done = iter.done(); // set on the leader only: the client's callback
            if (done != null) {
                done.run(Status.OK());
            }
            iter.next();
        }
    }

    long applied() {
        return applied;
    }

    long sum() {
        return sum;
    }
}
