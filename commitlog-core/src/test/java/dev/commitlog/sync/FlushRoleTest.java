package dev.commitlog.sync;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.lmax.disruptor.Sequence;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The flush role hands its holder-only state to its holder only, and only the holder releases it. */
class FlushRoleTest {
    private final DurabilityWaiters waiters = new DurabilityWaiters(new Sequence(), 16, 0, 0, DurabilityWaiters.MAX_YIELD_NANOS);
    private final FlushRole role = new FlushRole(null, waiters);

    @Test
    void holderOnlyStateIsRefusedToAThreadThatDoesNotHoldTheRole() {
        assertThrows(IllegalStateException.class, role::waiters, "nobody holds it");
        assertThrows(IllegalStateException.class, role::syncer, "nobody holds it");
        assertThrows(IllegalStateException.class, role::release, "nobody holds it");
        assertTrue(role.tryAcquire());
        assertSame(waiters, role.waiters());
        role.release();
        assertFalse(role.isHeld());
    }

    @Test
    void anotherThreadCanNeitherTakeNorUseNorReleaseAHeldRole() throws InterruptedException {
        assertTrue(role.tryAcquire());
        AtomicBoolean took = new AtomicBoolean(true);
        AtomicReference<Throwable> used = new AtomicReference<>();
        AtomicReference<Throwable> released = new AtomicReference<>();
        Thread other = new Thread(() -> {
            took.set(role.tryAcquire());
            used.set(catching(role::waiters));
            released.set(catching(role::release));
        });
        other.start();
        other.join();
        assertFalse(took.get());
        assertTrue(used.get() instanceof IllegalStateException, "used: " + used.get());
        assertTrue(released.get() instanceof IllegalStateException, "released: " + released.get());
        assertTrue(role.isHeld(), "still ours");
        role.release();
    }

    private static Throwable catching(Runnable action) {
        try {
            action.run();
            return null;
        } catch (Throwable e) {
            return e;
        }
    }
}
