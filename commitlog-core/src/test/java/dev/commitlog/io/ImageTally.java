package dev.commitlog.io;

import java.util.EnumMap;
import java.util.Map;

/**
 * What a power-loss run counts of its crash images, whatever else it checks: how many, how many
 * were taken at flush events, and how many under each {@link SimulatedDisk.Loss} policy. Tests
 * extend it with their own counts and add runs together.
 */
public class ImageTally {
    public int images;
    public int fromFlushEvents;
    public final Map<SimulatedDisk.Loss, Integer> byLoss = new EnumMap<>(SimulatedDisk.Loss.class);

    /** One image checked, taken under {@code loss}. */
    public void counted(SimulatedDisk.Loss loss) {
        images++;
        byLoss.merge(loss, 1, Integer::sum);
    }

    protected void addImages(ImageTally other) {
        images += other.images;
        fromFlushEvents += other.fromFlushEvents;
        other.byLoss.forEach((loss, n) -> byLoss.merge(loss, n, Integer::sum));
    }

    @Override
    public String toString() {
        return images + " images (" + fromFlushEvents + " at flush events, by loss " + byLoss + ")";
    }
}
