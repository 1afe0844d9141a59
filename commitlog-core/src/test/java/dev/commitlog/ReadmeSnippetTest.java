package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import dev.commitlog.disk.ChronicleJvmFlags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's Java blocks compile as printed (read from README.md at test time, so the test fails when
 * the README drifts), and README's JVM flags are exactly the ones {@code open} checks, listed once.
 */
class ReadmeSnippetTest {
    private static final Path README = Path.of("../README.md");
    /** What the snippet assumes around it: imports, the variables it uses and the node's own methods. */
    private static final String BEFORE = """
            import dev.commitlog.*;
            import dev.commitlog.config.*;
            import java.io.IOException;
            import java.nio.ByteBuffer;
            import java.nio.file.Path;
            import java.time.Duration;
            import java.util.concurrent.CompletableFuture;

            class ReadmeSnippet {
                void apply(ByteBuffer record) { }
                void acknowledge(long position) { }
                void retry(long position, Throwable failure) { }
                void reply(long position, Throwable failure) { }

                void run(byte[] bytes, ByteBuffer buffer, long key, long value) throws IOException {
            """;
    private static final String AFTER = """
                }
            }
            """;

    @TempDir
    Path out;

    @Test
    void everyJavaBlockCompiles() throws Exception {
        List<String> blocks = SnippetCompiler.javaBlocks(Files.readString(README));
        assertTrue(blocks.size() >= 2, "the short example at the top and the embedding snippet: " + blocks.size());
        assertTrue(blocks.get(0).contains("CommitLog.open(config)"), "the first java block is the short example: " + blocks.get(0));
        for (String snippet : blocks) {
            List<String> errors = SnippetCompiler.compile(BEFORE, snippet, AFTER, out);
            assertEquals(List.of(), errors, "README's snippet does not compile:\n" + snippet);
        }
    }

    @Test
    void theShortExampleIsAtMostTenLines() throws Exception {
        String first = SnippetCompiler.javaBlocks(Files.readString(README)).get(0);
        assertTrue(first.strip().split("\n").length <= 10, first);
    }

    /** The check itself: a snippet using an API that does not exist is reported. */
    @Test
    void aSnippetThatDoesNotCompileIsReported() throws Exception {
        List<String> errors = SnippetCompiler.compile(BEFORE, "CommitLog.open(null).replay(0, (position, record) -> record.readRemaining());\n", AFTER, out);
        assertFalse(errors.isEmpty());
    }

    /** README shows the flags once, and they are the ones open checks (the per-JDK blocks and build-tool snippets: JvmFlagsTest). */
    @Test
    void readmeListsExactlyTheFlagsOpenChecksOnce() throws Exception {
        String readme = Files.readString(README);
        Matcher flags = Pattern.compile("--add-(?:opens|exports)=\\S+?=ALL-UNNAMED").matcher(readme);
        List<String> listed = new ArrayList<>();
        while (flags.find()) {
            listed.add(flags.group());
        }
        assertEquals(ChronicleJvmFlags.required().stream().sorted().toList(), listed.stream().sorted().toList(),
                "README lists each flag exactly once");
    }
}
