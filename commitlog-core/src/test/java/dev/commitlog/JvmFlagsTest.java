package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.commitlog.disk.ChronicleJvmFlags;
import dev.commitlog.testkit.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a log in a JVM without the flags Chronicle Bytes needs fails at once, before the
 * directory is touched, with one message naming each missing flag and printing the block for the
 * running JDK; with them, it opens. The blocks docs/operations.md prints and the ones the tests run
 * with are the ones in {@link ChronicleJvmFlags}.
 */
class JvmFlagsTest {
    @TempDir
    Path dir;

    private static final Path OPERATIONS = Path.of("../docs/operations.md");

    @Test
    void thisJvmHasEveryFlag() {
        assertEquals(List.of(), ChronicleJvmFlags.missing());
    }

    /** The parent pom's argLine (the jdk23 profile from JDK 23) carries this JDK's whole block, and nothing a later JDK needs. */
    @Test
    void theTestsRunWithTheBlockOfTheirJdk() {
        List<String> flags = ChildJvm.jvmFlags();
        List<String> block = ChronicleJvmFlags.block();
        assertTrue(flags.containsAll(block), "surefire's flags " + flags + " lack some of " + block);
        int jdk = Runtime.version().feature();
        assertEquals(jdk >= 23, flags.contains("--sun-misc-unsafe-memory-access=allow"), "JDK " + jdk + ": " + flags);
    }

    /** docs/operations.md's snippets for Maven, Gradle and plain java each pass every flag open checks. */
    @Test
    void everyBuildToolSnippetPassesEveryFlag() throws Exception {
        String doc = Files.readString(OPERATIONS);
        String section = doc.substring(doc.indexOf("### Passing the flags"), doc.indexOf("## Threads"));
        for (String tool : new String[] {"Maven", "Gradle", "Plain `java`"}) {
            String part = section.substring(section.indexOf(tool));
            part = part.substring(0, part.indexOf("```", part.indexOf("```") + 3));
            for (String flag : ChronicleJvmFlags.required()) {
                assertTrue(part.contains(flag), tool + " snippet lacks " + flag);
            }
        }
    }

    @Test
    void theBlocksSplitAtJdk23() {
        for (int jdk : new int[] {17, 21, 22}) {
            assertEquals(ChronicleJvmFlags.required(), ChronicleJvmFlags.block(jdk));
            assertEquals("JDK 17 to 22", ChronicleJvmFlags.blockName(jdk));
        }
        for (int jdk : new int[] {23, 24, 25, 30}) {
            List<String> block = ChronicleJvmFlags.block(jdk);
            assertEquals(ChronicleJvmFlags.required(), block.subList(0, block.size() - 1));
            assertEquals("--sun-misc-unsafe-memory-access=allow", block.get(block.size() - 1));
            assertEquals("JDK 23 and later", ChronicleJvmFlags.blockName(jdk));
        }
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ChronicleJvmFlags.block(11));
        assertEquals("JDK 11: the commit log runs on JDK 17 and later", refused.getMessage());
    }

    /** docs/operations.md, "JVM flags": each block, under its heading, exactly as the code has it. */
    @Test
    void theOperationsGuidePrintsBothBlocksAsTheCodeHasThem() throws IOException {
        String doc = Files.readString(OPERATIONS);
        int start = doc.indexOf("\n## JVM flags\n");
        assertTrue(start >= 0, "docs/operations.md has a \"## JVM flags\" section");
        String section = doc.substring(start, doc.indexOf("\n## ", start + 1));
        for (int jdk : new int[] {17, 23}) {
            String heading = ChronicleJvmFlags.blockName(jdk) + ":\n\n```\n";
            int at = section.indexOf(heading);
            assertTrue(at >= 0, "no block headed \"" + ChronicleJvmFlags.blockName(jdk) + ":\"");
            String block = section.substring(at + heading.length(), section.indexOf("\n```", at + heading.length()));
            assertEquals(ChronicleJvmFlags.block(jdk), List.of(block.trim().split("\\s+")), ChronicleJvmFlags.blockName(jdk));
        }
    }

    /** The message prints the block for the JDK the child runs on, ready to paste. */
    @Test
    void theMessagePrintsTheBlockOfThisJdk() throws Exception {
        String output = run(List.of(), dir.resolve("log"));
        int jdk = Runtime.version().feature();
        assertTrue(output.endsWith(". The flags for " + ChronicleJvmFlags.blockName(jdk) + " (docs/operations.md, \"JVM flags\"; "
                + "in Maven, surefire's argLine; in Gradle, jvmArgs): " + String.join(" ", ChronicleJvmFlags.block(jdk))), output);
    }

    /** JDK 23 and later: with memory access denied Chronicle would fail half-way (invokeCleaner); open refuses first. */
    @Test
    void deniedMemoryAccessIsRefusedBeforeTheDirectoryIsTouched() throws Exception {
        assumeTrue(Runtime.version().feature() >= 23, "--sun-misc-unsafe-memory-access exists from JDK 23");
        List<String> flags = new ArrayList<>(ChildJvm.jvmFlags());
        flags.remove("--sun-misc-unsafe-memory-access=allow");
        flags.add("--sun-misc-unsafe-memory-access=deny");
        Path logDir = dir.resolve("log");
        String output = run(flags, logDir);
        assertTrue(output.startsWith("failed: java.lang.IllegalStateException: the commit log needs JVM flags this JVM was started "
                + "without (Chronicle Bytes, which maps the segment files, reaches into JDK internals): sun.misc.Unsafe memory access "
                + "is denied (--sun-misc-unsafe-memory-access=deny;"), output);
        assertFalse(Files.exists(logDir), "the directory was created: " + output);
    }

    @Test
    void withoutAnyFlagOpenFailsBeforeCreatingTheDirectoryAndNamesEveryFlag() throws Exception {
        Path logDir = dir.resolve("log");
        String output = run(List.of(), logDir);
        assertTrue(output.startsWith("failed: java.lang.IllegalStateException: the commit log needs JVM flags"), output);
        for (String flag : List.of("--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED")) {
            assertTrue(output.contains(flag), flag + " not named in: " + output);
        }
        assertFalse(Files.exists(logDir), "the directory was created: " + output);
    }

    @Test
    void anExistingDirectoryIsLeftEmpty() throws Exception {
        String output = run(List.of(), dir);
        assertTrue(output.startsWith("failed: java.lang.IllegalStateException"), output);
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "no segment, no commitlog.lock");
        }
    }

    /** Each flag is checked on its own: leave one out and the message names that one alone. */
    @Test
    void oneMissingFlagIsNamedAlone() throws Exception {
        String left = "--add-opens=java.base/java.nio=ALL-UNNAMED";
        List<String> flags = new ArrayList<>(ChildJvm.jvmFlags());
        assertTrue(flags.remove(left), "surefire's flags carry " + left);
        String output = run(flags, dir.resolve("log"));
        assertTrue(output.contains("reaches into JDK internals): missing " + left + ". The flags for "), output);
        assertFalse(Files.exists(dir.resolve("log")));
    }

    @Test
    void withTheFlagsAChildOpensTheLog() throws Exception {
        assertEquals("opened", run(ChildJvm.jvmFlags(), dir.resolve("log")));
    }

    private static String run(List<String> flags, Path logDir) throws IOException, InterruptedException {
        Process child = ChildJvm.start(ChildJvm.command(flags, OpenChild.class, logDir.toString()));
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child did not finish");
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        // Only the child's own line: a JVM without the flags may print warnings before it.
        return output.lines().filter(line -> line.startsWith("failed: ") || line.equals("opened")).findFirst()
                .orElse("no result line in: " + output);
    }
}
