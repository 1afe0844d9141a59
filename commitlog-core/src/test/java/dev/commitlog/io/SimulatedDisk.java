package dev.commitlog.io;

import dev.commitlog.disk.DirectFlushBlocks;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * An in-memory, fault-injecting {@link StorageLayer} for one log directory (LevelDB's
 * fault_injection_test, in the shape of this engine's file layer).
 *
 * <p>Each file has two images. The <em>current</em> one is a direct {@link ByteBuffer} that the
 * engine writes into exactly as into a mapping (the page cache). The <em>durable</em> one is what
 * the device holds: {@link SegmentFile#flush} copies the current bytes of the range, rounded out
 * to {@value #PAGE}-byte pages as {@code msync} does, into it. {@link #create} makes a file durable
 * whole, name included (the contract says it is synced, renamed and the directory synced); a
 * {@link #delete} is durable only after {@link #syncDirectory}.
 *
 * <p>{@link #crashImage} is a power loss: a new disk whose files hold the durable image plus some
 * subset, chosen by a {@link Loss} policy, of the {@value #SECTOR}-byte sectors that were dirty
 * (current differs from durable), taken from the current bytes; deletions not yet made durable
 * may be undone. Reads of current bytes race with appenders on purpose: a sector being written
 * back while it is written may hold any mixture, as on a real device.
 *
 * <p>Faults on command: fail the next flush's sync with an {@link IOException}, block flushes on a
 * latch, fill the device up so that flushes fail in their write step with
 * {@link NoSpaceLeftException} (retryable), fail every {@link #create} (disk full) until cleared.
 * Every flush call is counted, failed or not.
 *
 * <p>{@link #writingDirectly()} makes a disk whose new segments are flushed as
 * {@code commitlog_disk_access_mode: direct} writes them ({@link DirectFlushBlocks}): whole
 * blocks of the memory below the stable end, zeros from there to the end of the last block, the
 * header's block whole (the flushes that write those blocks into the page cache leave the same
 * bytes). A file opened with {@link #open} is flushed by pages of the memory, as the production
 * layer writes such a file through the page cache in either mode.
 *
 * <p>Files are keyed by name only, so an image can be reopened under any directory path.
 */
public final class SimulatedDisk implements StorageLayer {
    public static final int PAGE = 4096;
    public static final int SECTOR = 512;

    /** Which dirty sectors a power loss leaves on the device. */
    public enum Loss {
        /** Only what was flushed. */
        NONE,
        /** Every dirty sector was written back (the kernel's writeback got everything out). */
        ALL,
        /** Each dirty sector independently, with probability one half. */
        RANDOM_SECTORS,
        /** The first k dirty sectors in file order, k uniform: writes reach the device in order. */
        PREFIX,
        /** Whole dirty pages in random order (a later page may land without an earlier one). */
        OUT_OF_ORDER_PAGES;

        private static final Loss[] VALUES = values();

        public static Loss random(Random random) {
            return VALUES[random.nextInt(VALUES.length)];
        }
    }

    /** One completed (or failed) flush: which file, which byte range the device now holds. */
    public record FlushEvent(long sequence, String file, int from, int to, boolean failed) {
    }

    private static final class Node {
        final String name;
        final ByteBuffer current;
        final byte[] durable;

        Node(String name, byte[] contents) {
            this.name = name;
            this.current = ByteBuffer.allocateDirect(contents.length);
            this.current.put(0, contents);
            this.durable = contents.clone();
        }

        private Node(String name, Node file) {
            this.name = name;
            this.current = file.current;
            this.durable = file.durable;
        }

        /** The same file (its page cache and its device bytes) under another name. */
        Node renamed(String newName) {
            return new Node(newName, this);
        }
    }

    private final Object lock = new Object();
    /** The directory as the running system sees it. */
    private final Map<String, Node> files = new TreeMap<>();
    /** The directory as the device holds it: created files, and deleted ones until the directory is synced. */
    private final Map<String, Node> durableNames = new TreeMap<>();
    private long flushSequence;

    private final AtomicInteger flushCalls = new AtomicInteger();
    private final AtomicInteger failedFlushes = new AtomicInteger();
    /** The message the next flush's sync fails with, or null. */
    private final AtomicReference<String> failNextFlush = new AtomicReference<>();
    private volatile Predicate<WriteRange> fillsUp;
    private volatile boolean full;
    private final AtomicInteger noSpaceFailures = new AtomicInteger();
    private final AtomicReference<CountDownLatch> flushGate = new AtomicReference<>();
    private final CountDownLatch flushBlocked = new CountDownLatch(1);
    private final AtomicReference<String> createFault = new AtomicReference<>();
    private final AtomicInteger createCalls = new AtomicInteger();
    private volatile Consumer<FlushEvent> flushListener = event -> { };
    /** New segments are flushed as direct writes (see the class comment); crash images inherit it. */
    private boolean writesDirectly;

    public SimulatedDisk() {
    }

    /** A disk whose new segments are flushed as {@code commitlog_disk_access_mode: direct} writes them. */
    public static SimulatedDisk writingDirectly() {
        SimulatedDisk disk = new SimulatedDisk();
        disk.writesDirectly = true;
        return disk;
    }

    // ---- faults and observation -------------------------------------------------------------

    /** The next flush call throws {@code IOException("Input/output error")} and makes nothing durable. */
    public void failNextFlush() {
        failNextFlush("Input/output error");
    }

    /**
     * The next flush's sync ({@code fdatasync}) fails with {@code IOException(message)}, after its
     * write step succeeded; nothing becomes durable. A sync failure is fatal whatever it says,
     * "No space left on device" (writeback found no space) included.
     */
    public void failNextFlush(String message) {
        failNextFlush.set(message);
    }

    /** One flush's write step: a byte range of a file, as a full disk sees it. */
    public record WriteRange(String file, int from, int to, int size) {
    }

    /**
     * The device is full from now on: every flush fails in its write step ({@code pwrite} found no
     * space) with {@link NoSpaceLeftException}, before anything is synced, until {@link #freeSpace()}.
     */
    public void fillUp() {
        full = true;
    }

    /** The device fills up at the first flush whose write step {@code when} matches (that flush fails), until {@link #freeSpace()}. */
    public void fillUpWhen(Predicate<WriteRange> when) {
        fillsUp = when;
    }

    public void freeSpace() {
        fillsUp = null;
        full = false;
    }

    /** Flushes that failed in their write step for want of space. */
    public int noSpaceFailures() {
        return noSpaceFailures.get();
    }

    /** Flush calls from now on block until {@link #releaseFlushes()}. */
    public void blockFlushes() {
        flushGate.set(new CountDownLatch(1));
    }

    public void releaseFlushes() {
        CountDownLatch gate = flushGate.getAndSet(null);
        if (gate != null) {
            gate.countDown();
        }
    }

    /** Waits until some flush call is blocked on the gate set by {@link #blockFlushes()}. */
    public boolean awaitFlushBlocked(long millis) throws InterruptedException {
        return flushBlocked.await(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** Every {@link #create} throws {@code IOException(message)} until {@link #clearCreateFault()}. */
    public void failCreates(String message) {
        createFault.set(message);
    }

    public void clearCreateFault() {
        createFault.set(null);
    }

    /** Called on the flushing thread after each flush, successful or failed, outside the disk's lock. */
    public void onFlush(Consumer<FlushEvent> listener) {
        this.flushListener = listener;
    }

    /** Flush calls so far, failed ones included. */
    public int flushCalls() {
        return flushCalls.get();
    }

    public int failedFlushes() {
        return failedFlushes.get();
    }

    public int createCalls() {
        return createCalls.get();
    }

    /** The names of the files the running system sees. */
    public List<String> fileNames() {
        synchronized (lock) {
            return new ArrayList<>(files.keySet());
        }
    }

    // ---- StorageLayer ------------------------------------------------------------------------

    @Override
    public SegmentFile create(Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions) throws IOException {
        createCalls.incrementAndGet();
        String fault = createFault.get();
        if (fault != null) {
            throw new IOException(fault);
        }
        String name = name(path);
        byte[] contents = new byte[size];
        ByteBuffer h = header.duplicate().clear();
        h.get(contents, 0, Math.min(h.remaining(), size));
        synchronized (lock) {
            if (files.containsKey(name)) {
                throw new IOException(path + " already exists");
            }
            Node node = new Node(name, contents);
            files.put(name, node);
            durableNames.put(name, node);
            return new Handle(node, path, true, writesDirectly ? header.capacity() : -1);
        }
    }

    /** A rename, durable once the directory is synced (until then a power loss may undo it). */
    @Override
    public boolean retire(Path segment, Path spare) throws IOException {
        synchronized (lock) {
            Node node = existing(segment);
            if (files.containsKey(name(spare))) {
                throw new IOException(spare + " already exists");
            }
            files.remove(name(segment));
            files.put(name(spare), node.renamed(name(spare)));
            return true;
        }
    }

    /**
     * As the production layer: the header and the 8 bytes after it written and synced, then the
     * rename and the directory sync; every other byte keeps the spare's former life, in the page
     * cache and on the device.
     */
    @Override
    public SegmentFile reuse(Path spare, Path path, int size, ByteBuffer header, Set<PosixFilePermission> permissions)
            throws IOException {
        synchronized (lock) {
            Node node = existing(spare);
            if (node.durable.length == size) {
                ByteBuffer h = header.duplicate().clear();
                byte[] start = new byte[h.remaining() + Long.BYTES];
                h.get(start, 0, start.length - Long.BYTES);
                node.current.put(0, start);
                System.arraycopy(start, 0, node.durable, 0, start.length);
                // The writer's memory reads zeros past them; the device keeps the former life's bytes.
                node.current.put(start.length, new byte[size - start.length]);
                files.remove(name(spare));
                Node reused = node.renamed(name(path));
                files.put(name(path), reused);
                syncDirectory(path.getParent());
                return new Handle(reused, path, true, writesDirectly ? h.capacity() : -1);
            }
            files.remove(name(spare));
        }
        return create(path, size, header, permissions);
    }

    @Override
    public SegmentFile open(Path path, boolean writable) throws IOException {
        synchronized (lock) {
            Node node = existing(path);
            return new Handle(node, path, writable, -1);
        }
    }

    @Override
    public List<Path> list(Path directory) {
        synchronized (lock) {
            List<Path> result = new ArrayList<>();
            for (String name : files.keySet()) {
                result.add(directory.resolve(name));
            }
            return result;
        }
    }

    @Override
    public long size(Path path) throws IOException {
        synchronized (lock) {
            Node node = existing(path);
            return node.durable.length;
        }
    }

    @Override
    public void delete(Path path) {
        synchronized (lock) {
            files.remove(name(path));
        }
    }

    @Override
    public void syncDirectory(Path directory) {
        synchronized (lock) {
            durableNames.clear();
            durableNames.putAll(files);
        }
    }

    /** The file at {@code path}; the caller holds the lock. */
    private Node existing(Path path) throws java.nio.file.NoSuchFileException {
        Node node = files.get(name(path));
        if (node == null) {
            throw new java.nio.file.NoSuchFileException(path.toString());
        }
        return node;
    }

    private static String name(Path path) {
        return path.getFileName().toString();
    }

    // ---- power loss --------------------------------------------------------------------------

    /**
     * A new disk holding what a power loss now could leave: every file whose name is durable, with
     * its durable image plus the dirty sectors {@code loss} keeps. Files deleted without a directory
     * sync come back with probability one half (always under {@link Loss#NONE}, never under
     * {@link Loss#ALL}).
     */
    public SimulatedDisk crashImage(Random random, Loss loss) {
        Map<String, byte[]> image = new TreeMap<>();
        List<int[]> dirty = new ArrayList<>(); // {file index, sector}
        List<String> order = new ArrayList<>();
        List<byte[]> currents = new ArrayList<>();
        synchronized (lock) {
            for (Node node : durableNames.values()) {
                boolean deleted = files.get(node.name) != node;
                if (deleted && (loss == Loss.ALL || (loss != Loss.NONE && random.nextBoolean()))) {
                    continue;
                }
                byte[] bytes = node.durable.clone();
                byte[] current = new byte[bytes.length];
                node.current.get(0, current);
                int index = order.size();
                order.add(node.name);
                currents.add(current);
                image.put(node.name, bytes);
                for (int from = 0; from < bytes.length; from += SECTOR) {
                    int to = Math.min(bytes.length, from + SECTOR);
                    if (!Arrays.equals(bytes, from, to, current, from, to)) {
                        dirty.add(new int[] {index, from});
                    }
                }
            }
        }
        List<int[]> kept = switch (loss) {
            case NONE -> List.of();
            case ALL -> dirty;
            case RANDOM_SECTORS -> dirty.stream().filter(s -> random.nextBoolean()).toList();
            case PREFIX -> dirty.subList(0, random.nextInt(dirty.size() + 1));
            case OUT_OF_ORDER_PAGES -> {
                Map<Long, Boolean> pages = new java.util.HashMap<>();
                yield dirty.stream()
                        .filter(s -> pages.computeIfAbsent(((long) s[0] << 32) | (s[1] / PAGE), p -> random.nextBoolean()))
                        .toList();
            }
        };
        for (int[] sector : kept) {
            byte[] bytes = image.get(order.get(sector[0]));
            byte[] current = currents.get(sector[0]);
            int length = Math.min(SECTOR, bytes.length - sector[1]);
            System.arraycopy(current, sector[1], bytes, sector[1], length);
        }
        SimulatedDisk disk = holding(image);
        disk.writesDirectly = writesDirectly;
        return disk;
    }

    /** A disk whose files (name to contents, durable, names included) are exactly {@code image}. */
    public static SimulatedDisk holding(Map<String, byte[]> image) {
        SimulatedDisk disk = new SimulatedDisk();
        for (Map.Entry<String, byte[]> file : image.entrySet()) {
            Node node = new Node(file.getKey(), file.getValue());
            disk.files.put(node.name, node);
            disk.durableNames.put(node.name, node);
        }
        return disk;
    }

    /** The bytes the device holds for {@code fileName} (a copy), or null. */
    public byte[] durableBytes(String fileName) {
        synchronized (lock) {
            Node node = durableNames.get(fileName);
            return node == null ? null : node.durable.clone();
        }
    }

    private final class Handle implements SegmentFile {
        private final Node node;
        private final Path path;
        private final ByteBuffer buffer;
        /** Flushed as direct writes: the end of what the flushes (and the header) wrote; -1: by pages. */
        private int writtenTo;
        private volatile boolean closed;

        Handle(Node node, Path path, boolean writable, int writtenTo) {
            this.node = node;
            this.path = path;
            this.buffer = writable ? node.current : node.current.asReadOnlyBuffer();
            this.writtenTo = writtenTo;
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public int size() {
            return node.durable.length;
        }

        @Override
        public ByteBuffer buffer() {
            return buffer;
        }

        @Override
        public void flush(int from, int to) throws IOException {
            flush(0, from, to);
        }

        /**
         * Only the header (if asked) and the range become durable, page by page, as the production
         * layer's {@code pwrite} of exactly those bytes and then {@code fdatasync} leave them.
         */
        @Override
        public void flushHeaderAndRange(int headerLength, int from, int to) throws IOException {
            flush(Math.min(headerLength, from), from, to);
        }

        /** Makes the pages of {@code [0, headerLength)} and {@code [from, to)} durable, in one event. */
        private void flush(int headerLength, int from, int to) throws IOException {
            flushCalls.incrementAndGet();
            if (closed) {
                throw new IOException(path + " is closed");
            }
            if (from < 0 || to > size() || from > to) {
                throw new IndexOutOfBoundsException("flush [" + from + ", " + to + ") of " + size());
            }
            CountDownLatch gate = flushGate.get();
            if (gate != null) {
                flushBlocked.countDown();
                // Like the real layer's uninterruptible channels: an interrupt neither ends nor fails the flush.
                boolean interrupted = false;
                for (;;) {
                    try {
                        gate.await();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            FlushEvent event;
            Predicate<WriteRange> fills = fillsUp;
            if (full || (fills != null && fills.test(new WriteRange(node.name, from, to, size())))) {
                full = true; // the write step found no space: nothing synced, nothing promised
                noSpaceFailures.incrementAndGet();
                throw new NoSpaceLeftException(path, new IOException("No space left on device (simulated)"));
            }
            String syncFailure = failNextFlush.getAndSet(null);
            if (syncFailure != null) {
                failedFlushes.incrementAndGet();
                synchronized (lock) {
                    event = new FlushEvent(++flushSequence, node.name, from, to, true);
                }
                flushListener.accept(event);
                throw new IOException(syncFailure + " (simulated flush failure of " + path + ")");
            }
            if (writtenTo >= 0) {
                event = flushDirectly(headerLength, from, to);
            } else {
                int pageFrom = from / PAGE * PAGE;
                int pageTo = Math.min(size(), (to + PAGE - 1) / PAGE * PAGE);
                int headerTo = Math.min(pageFrom, (headerLength + PAGE - 1) / PAGE * PAGE);
                synchronized (lock) {
                    node.current.get(0, node.durable, 0, headerTo);
                    node.current.get(pageFrom, node.durable, pageFrom, pageTo - pageFrom);
                    event = new FlushEvent(++flushSequence, node.name, pageFrom, pageTo, false);
                }
            }
            flushListener.accept(event);
        }

        /** The blocks {@link DirectFlushBlocks} says, as the production layer's direct writes leave them on the device. */
        private FlushEvent flushDirectly(int headerLength, int from, int to) {
            int stableEnd = DirectFlushBlocks.stableEnd(writtenTo, to);
            writtenTo = Math.max(writtenTo, Math.max(headerLength, to));
            int start = 0;
            int end = 0; // nothing to write: a sync alone
            boolean headerBlock = DirectFlushBlocks.headerBlockAlone(headerLength, from, to)
                    || DirectFlushBlocks.throughPageCache(headerLength, from, to); // the same blocks, through the page cache
            if (from < to) {
                start = DirectFlushBlocks.rangeStart(headerLength, from);
                end = Math.min(size(), DirectFlushBlocks.rangeEnd(to));
            }
            synchronized (lock) {
                if (headerBlock) {
                    writeBlocks(0, DirectFlushBlocks.BLOCK, stableEnd);
                }
                writeBlocks(start, end, stableEnd);
                return new FlushEvent(++flushSequence, node.name, headerBlock ? 0 : start, Math.max(end, headerBlock ? DirectFlushBlocks.BLOCK : 0),
                        false);
            }
        }

        private void writeBlocks(int start, int end, int stableEnd) {
            int fromMemory = Math.min(end, stableEnd);
            node.current.get(start, node.durable, start, fromMemory - start);
            Arrays.fill(node.durable, fromMemory, end, (byte) 0);
        }

        @Override
        public void close() {
            closed = true;
        }

        @Override
        public String toString() {
            return "simulated:" + path;
        }
    }
}
