package dev.commitlog.segment;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** The overlap gate opens only while overlapped flushes measure nearly as cheap as solo ones. */
class OverlapGateTest {
    private static final long SOLO = 200_000;

    @Test
    void noOverlapBeforeASoloBaseline() {
        assertFalse(new OverlapGate(true).allowsOverlap());
    }

    @Test
    void aSerialDeviceClosesTheGateAndItIsProbedOncePerInterval() {
        OverlapGate gate = new OverlapGate(true);
        gate.record(SOLO, false);
        assertTrue(gate.allowsOverlap(), "the first overlap is a measurement");
        gate.record(2 * SOLO, true); // two syncs at once took twice as long: the device serialises them
        assertFalse(gate.allowsOverlap());
        for (int i = 2; i < OverlapGate.PROBE_INTERVAL; i++) { // the probe's own flush was the first
            gate.record(SOLO, false);
            assertFalse(gate.allowsOverlap(), "flush " + i);
        }
        gate.record(SOLO, false);
        assertTrue(gate.allowsOverlap(), "a probe after PROBE_INTERVAL flushes");
        assertFalse(gate.allowsOverlap(), "only one probe");
    }

    @Test
    void aParallelDeviceKeepsTheGateOpen() {
        OverlapGate gate = new OverlapGate(true);
        gate.record(SOLO, false);
        for (int i = 0; i < 100; i++) {
            assertTrue(gate.allowsOverlap(), "overlap " + i);
            gate.record(SOLO + SOLO / 20, true); // 5% slower when overlapped
        }
    }

    @Test
    void theGateFollowsTheDeviceWhenItChanges() {
        OverlapGate gate = new OverlapGate(true);
        gate.record(SOLO, false);
        gate.record(SOLO, true);
        assertTrue(gate.allowsOverlap());
        for (int i = 0; i < 64; i++) {
            gate.record(3 * SOLO, true); // overlapped syncs became slow
        }
        assertFalse(gate.allowsOverlap());
        assertTrue(gate.overlappedNanos() > OverlapGate.PAYS_BELOW * gate.soloNanos());
    }

    @Test
    void disabledAlwaysAllows() {
        assertTrue(new OverlapGate(false).allowsOverlap());
    }
}
