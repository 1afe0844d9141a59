package dev.commitlog.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.commitlog.SnippetCompiler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/raft.md's plug-in snippets compile as printed (read at test time, so drift fails the test). */
class RaftSnippetTest {
    private static final Path DOC = Path.of("../docs/raft.md");
    /** What the snippet assumes around it: imports and the node's own pieces. */
    private static final String BEFORE = """
            import com.alipay.sofa.jraft.Node;
            import com.alipay.sofa.jraft.RaftGroupService;
            import com.alipay.sofa.jraft.StateMachine;
            import com.alipay.sofa.jraft.conf.Configuration;
            import com.alipay.sofa.jraft.entity.PeerId;
            import com.alipay.sofa.jraft.option.NodeOptions;
            import com.alipay.sofa.jraft.rpc.RpcServer;
            import dev.commitlog.config.*;
            import dev.commitlog.raft.*;
            import java.io.IOException;
            import java.nio.file.Path;
            import java.util.Map;
            import java.util.concurrent.ConcurrentHashMap;

            class RaftSnippet {
                void run(StateMachine stateMachine, Configuration conf, PeerId serverId, RpcServer rpcServer) throws IOException {
            """;
    private static final String AFTER = """
                }
            }
            """;

    @TempDir
    Path out;

    @Test
    void thePlugInSnippetCompiles() throws Exception {
        String snippet = SnippetCompiler.javaBlocks(Files.readString(DOC)).get(0);
        assertTrue(snippet.contains("new CommitLogJRaftServiceFactory(raftLog)"), "the first java block is the plug-in snippet: " + snippet);
        List<String> errors = SnippetCompiler.compile(BEFORE, snippet, AFTER, out);
        assertEquals(List.of(), errors, "docs/raft.md's snippet does not compile:\n" + snippet);
    }

    @Test
    void theBoundAndDropSnippetCompiles() throws Exception {
        String snippet = SnippetCompiler.javaBlocks(Files.readString(DOC)).get(1);
        assertTrue(snippet.contains("RaftLogOptions.builder()") && snippet.contains("raftLog.drop("),
                "the second java block is the bound-and-drop snippet: " + snippet);
        List<String> errors = SnippetCompiler.compile(BEFORE, snippet, AFTER, out);
        assertEquals(List.of(), errors, "docs/raft.md's second snippet does not compile:\n" + snippet);
    }
}
