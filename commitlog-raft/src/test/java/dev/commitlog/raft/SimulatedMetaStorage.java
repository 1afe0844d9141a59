package dev.commitlog.raft;

import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.RaftMetaStorageOptions;
import com.alipay.sofa.jraft.storage.RaftMetaStorage;
import dev.commitlog.io.SegmentFile;
import dev.commitlog.io.StorageLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * JRaft's {@link RaftMetaStorage} (the current term and the vote) in one file of a
 * {@link StorageLayer}: on a {@code SimulatedDisk} a power loss takes the meta with the node's
 * commit log, at one instant.
 *
 * <p>JRaft's own {@code LocalRaftMetaStorage} (1.4.1) writes a new file through {@code java.io},
 * and when {@code RaftOptions.sync} or {@code syncMeta} is on fsyncs it, renames it over the old one
 * and fsyncs the directory: durable before the call returns, but through a path no simulated device
 * sees. {@code JRaftServiceFactory.createRaftMetaStorage} lets a node take another; this one keeps
 * the same promise (a term or vote is durable before JRaft acts on it, e.g. answers the vote
 * request) in the file layer the commit log's tests fail on command:
 *
 * <pre>
 *   slot 0: bytes [0, 512)    slot 1: bytes [512, 1024)      (one 512-byte sector each)
 *   slot:   version i64 | term i64 | vote length u16 | vote (UTF-8) | CRC32C of the preceding bytes i32
 * </pre>
 *
 * A save writes the next version into the slot the older version holds, then flushes that range
 * (pwrite and fdatasync in the production layer), and returns only then. Load takes the valid slot
 * with the higher version. A save a power loss tears or drops leaves the other slot: the state
 * before the call, which never returned. Every save and the load are reported to an
 * {@link AcknowledgedMeta}; each save passes the node's {@link PowerSwitch} on its way in and out.
 */
final class SimulatedMetaStorage implements RaftMetaStorage {
    static final String FILE = "raft-meta";
    private static final int SLOT = 512;
    private static final int MAX_VOTE_BYTES = SLOT - 8 - 8 - 2 - 4;

    private final StorageLayer disk;
    private final Path path;
    private final PowerSwitch power;
    private final AcknowledgedMeta acknowledged;
    private SegmentFile file;
    private long version;
    private long term;
    private PeerId votedFor = PeerId.emptyPeer();

    SimulatedMetaStorage(StorageLayer disk, Path directory, PowerSwitch power, AcknowledgedMeta acknowledged) {
        this.disk = disk;
        this.path = directory.resolve(FILE);
        this.power = power;
        this.acknowledged = acknowledged;
    }

    @Override
    public synchronized boolean init(RaftMetaStorageOptions opts) {
        try {
            try {
                file = disk.open(path, true);
            } catch (NoSuchFileException e) {
                file = disk.create(path, 2 * SLOT, ByteBuffer.allocate(0), Set.of()); // durable, name included
            }
        } catch (IOException e) {
            return false;
        }
        for (int slot = 0; slot < 2; slot++) {
            readSlot(slot);
        }
        acknowledged.loaded(new AcknowledgedMeta.Vote(term, votedFor.isEmpty() ? "" : votedFor.toString()));
        return true;
    }

    /** Takes the slot's state if its checksum holds and its version is the highest seen. */
    private void readSlot(int slot) {
        ByteBuffer bytes = file.buffer().duplicate();
        int at = slot * SLOT;
        long slotVersion = bytes.getLong(at);
        int length = Short.toUnsignedInt(bytes.getShort(at + 16));
        if (slotVersion <= version || length > MAX_VOTE_BYTES) {
            return;
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes.slice(at, 18 + length));
        if ((int) crc.getValue() != bytes.getInt(at + 18 + length)) {
            return; // torn or never written: the other slot holds the state
        }
        byte[] vote = new byte[length];
        bytes.get(at + 18, vote);
        PeerId peer = PeerId.emptyPeer();
        if (length > 0 && !peer.parse(new String(vote, StandardCharsets.UTF_8))) {
            return;
        }
        version = slotVersion;
        term = bytes.getLong(at + 8);
        votedFor = peer;
    }

    private synchronized boolean save(long newTerm, PeerId newVote) {
        if (!power.pass()) {
            return false;
        }
        String vote = newVote == null || newVote.isEmpty() ? "" : newVote.toString();
        AcknowledgedMeta.Vote state = new AcknowledgedMeta.Vote(newTerm, vote);
        acknowledged.beginning(state);
        byte[] voteBytes = vote.getBytes(StandardCharsets.UTF_8);
        long next = version + 1;
        int at = (int) (next % 2) * SLOT;
        ByteBuffer slot = ByteBuffer.allocate(SLOT);
        slot.putLong(next).putLong(newTerm).putShort((short) voteBytes.length).put(voteBytes);
        CRC32C crc = new CRC32C();
        crc.update(slot.array(), 0, slot.position());
        slot.putInt((int) crc.getValue());
        file.buffer().put(at, slot.array());
        try {
            file.flush(at, at + SLOT);
        } catch (IOException e) {
            return false; // nothing promised; JRaft reports the failed save
        }
        version = next;
        term = newTerm;
        votedFor = newVote == null ? PeerId.emptyPeer() : newVote.copy();
        if (!power.pass()) {
            return false;
        }
        acknowledged.done(state);
        return true;
    }

    @Override
    public synchronized void shutdown() {
        if (file != null) {
            file.close();
            file = null;
        }
    }

    @Override
    public synchronized boolean setTerm(long newTerm) {
        return save(newTerm, votedFor);
    }

    @Override
    public synchronized long getTerm() {
        return term;
    }

    @Override
    public synchronized boolean setVotedFor(PeerId peerId) {
        return save(term, peerId);
    }

    @Override
    public synchronized PeerId getVotedFor() {
        return votedFor;
    }

    @Override
    public synchronized boolean setTermAndVotedFor(long newTerm, PeerId peerId) {
        return save(newTerm, peerId);
    }
}
