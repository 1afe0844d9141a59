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
 * README's embedding snippet compiles as printed (read from README.md at test time, so the test
 * fails when the README drifts), and README's JVM flags are exactly the ones {@code open} checks.
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

                void run(byte[] bytes, ByteBuffer buffer, long key, long value) throws IOException {
            """;
    private static final String AFTER = """
                }
            }
            """;

    @TempDir
    Path out;

    @Test
    void theEmbeddingSnippetCompiles() throws Exception {
        String snippet = SnippetCompiler.javaBlocks(Files.readString(README)).get(0);
        assertTrue(snippet.contains("CommitLog.open(config)"), "the first java block is the embedding snippet: " + snippet);
        List<String> errors = SnippetCompiler.compile(BEFORE, snippet, AFTER, out);
        assertEquals(List.of(), errors, "README's snippet does not compile:\n" + snippet);
    }

    /** The check itself: a snippet using an API that does not exist is reported. */
    @Test
    void aSnippetThatDoesNotCompileIsReported() throws Exception {
        List<String> errors = SnippetCompiler.compile(BEFORE, "CommitLog.open(null).replay(0, (position, record) -> record.readRemaining());\n", AFTER, out);
        assertFalse(errors.isEmpty());
    }

    @Test
    void readmeListsExactlyTheFlagsOpenChecks() throws Exception {
        String readme = Files.readString(README);
        String section = readme.substring(readme.indexOf("### JVM flags"), readme.indexOf("- **Sync modes**"));
        for (String block : new String[] {"Maven", "Gradle", "Plain `java`"}) {
            String part = section.substring(section.indexOf(block));
            part = part.substring(0, part.indexOf("```", part.indexOf("```") + 3));
            for (String flag : ChronicleJvmFlags.required()) {
                assertTrue(part.contains(flag), block + " block lacks " + flag);
            }
        }
        Matcher flags = Pattern.compile("--add-(?:opens|exports)=\\S+?=ALL-UNNAMED").matcher(section.substring(0, section.indexOf("Maven")));
        List<String> listed = new ArrayList<>();
        while (flags.find()) {
            listed.add(flags.group());
        }
        assertEquals(ChronicleJvmFlags.required().stream().sorted().toList(), listed.stream().sorted().toList());
    }
}
