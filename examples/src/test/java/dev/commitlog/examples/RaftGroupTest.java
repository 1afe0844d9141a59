package dev.commitlog.examples;

import static org.junit.jupiter.api.Assertions.*;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class RaftGroupTest {
    @TempDir
    Path dir;

    @Test
    void everyGroupAppliesEveryOperationOnAllThreeNodes() throws Exception {
        RaftGroup.Applied result = RaftGroup.run(dir, new PrintStream(OutputStream.nullOutputStream()));
        assertEquals(RaftGroup.GROUPS, List.copyOf(result.applied().keySet()));
        long sum = (long) RaftGroup.OPERATIONS * (RaftGroup.OPERATIONS + 1) / 2;
        for (String group : RaftGroup.GROUPS) {
            assertEquals(Collections.nCopies(3, (long) RaftGroup.OPERATIONS), result.applied().get(group), group + ": applied per node");
            assertEquals(Collections.nCopies(3, sum), result.sums().get(group), group + ": sum per node");
            assertTrue(result.leaders().get(group).startsWith("127.0.0.1:"), result.leaders().toString());
        }
    }
}
