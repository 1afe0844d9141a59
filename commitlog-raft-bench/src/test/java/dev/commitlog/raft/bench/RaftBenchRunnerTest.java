package dev.commitlog.raft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RaftBenchRunnerTest {

    @Test
    void everyContenderGoesFirstAtEveryCellOverAsManyPasses() {
        List<Contender> contenders = List.of(Contender.values());
        // Six cells: a count the three contenders divide.
        for (int cell = 0; cell < 6; cell++) {
            Set<Contender> first = new HashSet<>();
            for (int pass = 0; pass < contenders.size(); pass++) {
                List<Contender> order = RaftBenchRunner.order(contenders, cell, pass);
                assertEquals(Set.copyOf(contenders), Set.copyOf(order), "each contender once per cell");
                first.add(order.get(0));
            }
            assertEquals(Set.copyOf(contenders), first, "first contenders at cell " + cell);
        }
    }
}
