package dev.commitlog.raft;

import com.alipay.sofa.jraft.Closure;
import com.alipay.sofa.jraft.Iterator;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.core.StateMachineAdapter;
import com.alipay.sofa.jraft.storage.snapshot.SnapshotReader;
import com.alipay.sofa.jraft.storage.snapshot.SnapshotWriter;

/** An {@link OpsStateMachine} that also tells a listener when its node starts and stops leading. */
final class LeaderAwareStateMachine extends StateMachineAdapter {
    interface Listener {
        void leaderStart(long term);

        void leaderStop();
    }

    private final OpsStateMachine ops;
    private final Listener listener;

    LeaderAwareStateMachine(OpsStateMachine ops, Listener listener) {
        this.ops = ops;
        this.listener = listener;
    }

    @Override
    public void onApply(Iterator iter) {
        ops.onApply(iter);
    }

    @Override
    public void onSnapshotSave(SnapshotWriter writer, Closure done) {
        ops.onSnapshotSave(writer, done);
    }

    @Override
    public boolean onSnapshotLoad(SnapshotReader reader) {
        return ops.onSnapshotLoad(reader);
    }

    @Override
    public void onLeaderStart(long term) {
        listener.leaderStart(term);
    }

    @Override
    public void onLeaderStop(Status status) {
        listener.leaderStop();
    }
}
