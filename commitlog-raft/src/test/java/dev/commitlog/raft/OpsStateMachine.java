package dev.commitlog.raft;

import com.alipay.sofa.jraft.Iterator;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.core.StateMachineAdapter;
import com.alipay.sofa.jraft.error.RaftError;
import com.alipay.sofa.jraft.storage.snapshot.SnapshotReader;
import com.alipay.sofa.jraft.storage.snapshot.SnapshotWriter;
import com.alipay.sofa.jraft.Closure;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A state machine that records every operation (a {@code long} per task) in apply order. Its
 * snapshot is the whole list, so a node that installs a snapshot holds the same list as the others.
 */
final class OpsStateMachine extends StateMachineAdapter {
    private static final String SNAPSHOT_FILE = "ops";

    private final List<Long> ops = new ArrayList<>();
    private final AtomicInteger snapshotsLoaded = new AtomicInteger();
    private final AtomicInteger snapshotsSaved = new AtomicInteger();

    @Override
    public void onApply(Iterator iter) {
        while (iter.hasNext()) {
            ByteBuffer data = iter.getData();
            if (data != null && data.remaining() == Long.BYTES) {
                long op = data.getLong(data.position());
                synchronized (ops) {
                    ops.add(op);
                }
            }
            Closure done = iter.done();
            if (done != null) {
                done.run(Status.OK());
            }
            iter.next();
        }
    }

    @Override
    public void onSnapshotSave(SnapshotWriter writer, Closure done) {
        List<Long> copy = ops();
        Path file = Path.of(writer.getPath(), SNAPSHOT_FILE);
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
            out.writeInt(copy.size());
            for (long op : copy) {
                out.writeLong(op);
            }
        } catch (IOException e) {
            done.run(new Status(RaftError.EIO, "cannot write snapshot: %s", e));
            return;
        }
        if (writer.addFile(SNAPSHOT_FILE)) {
            snapshotsSaved.incrementAndGet();
            done.run(Status.OK());
        } else {
            done.run(new Status(RaftError.EIO, "cannot add the snapshot file"));
        }
    }

    @Override
    public boolean onSnapshotLoad(SnapshotReader reader) {
        if (reader.getFileMeta(SNAPSHOT_FILE) == null) {
            return false;
        }
        Path file = Path.of(reader.getPath(), SNAPSHOT_FILE);
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
            int n = in.readInt();
            List<Long> loaded = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                loaded.add(in.readLong());
            }
            synchronized (ops) {
                ops.clear();
                ops.addAll(loaded);
            }
            snapshotsLoaded.incrementAndGet();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    List<Long> ops() {
        synchronized (ops) {
            return new ArrayList<>(ops);
        }
    }

    int size() {
        synchronized (ops) {
            return ops.size();
        }
    }

    int snapshotsLoaded() {
        return snapshotsLoaded.get();
    }

    int snapshotsSaved() {
        return snapshotsSaved.get();
    }
}
