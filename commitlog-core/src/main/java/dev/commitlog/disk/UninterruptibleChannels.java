package dev.commitlog.disk;

import java.lang.reflect.Method;
import java.nio.channels.FileChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a segment's {@link FileChannel} immune to thread interrupts. A plain {@code FileChannel} is
 * an interruptible channel: a thread interrupted during {@code pwrite} or {@code fdatasync} closes
 * it for every thread, and the log fails. Batch and Adaptive appenders run flushes in their own
 * threads, which the embedding application may interrupt (an executor's {@code shutdownNow}), so
 * the channel must not care. The JDK does this for its own internal files through
 * {@code sun.nio.ch.FileChannelImpl.setUninterruptible()}; that needs
 * {@code --add-opens java.base/sun.nio.ch=ALL-UNNAMED}, which Chronicle Bytes needs anyway.
 * Without it, a warning says what an interrupt would do.
 */
final class UninterruptibleChannels {
    private static final Logger LOG = LoggerFactory.getLogger(UninterruptibleChannels.class);
    private static final Method SET_UNINTERRUPTIBLE = find();

    private UninterruptibleChannels() {
    }

    static void make(FileChannel channel) {
        if (SET_UNINTERRUPTIBLE == null) {
            return;
        }
        try {
            SET_UNINTERRUPTIBLE.invoke(channel);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("could not make {} uninterruptible: {}", channel, e.toString());
        }
    }

    private static Method find() {
        try {
            Method method = Class.forName("sun.nio.ch.FileChannelImpl").getDeclaredMethod("setUninterruptible");
            method.setAccessible(true);
            return method;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("segment files stay interruptible ({}): an appender interrupted while it flushes will close the "
                    + "segment file and fail the log; run with --add-opens java.base/sun.nio.ch=ALL-UNNAMED", e.toString());
            return null;
        }
    }
}
