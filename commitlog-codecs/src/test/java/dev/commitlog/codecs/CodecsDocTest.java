package dev.commitlog.codecs;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/codecs.md names each optional library with the version commitlog-codecs is built and tested
 * with (the parent pom's, which the codecs' errors also name), and the BOM manages the module.
 */
class CodecsDocTest {
    private static final Path DOC = Path.of("../docs/codecs.md");

    @Test
    void theTableNamesEachLibraryAtTheVersionItIsTestedWith() throws Exception {
        String doc = Files.readString(DOC);
        List<String> rows = doc.lines().filter(line -> line.startsWith("| ")).toList();
        for (OptionalLibrary library : OptionalLibrary.values()) {
            String version = library.testedVersion();
            assertNotNull(version, library + " has a tested version");
            assertTrue(version.matches("\\d+(\\.\\d+)+"), library + ": '" + version + "' (resource not filtered?)");
            assertTrue(rows.stream().anyMatch(row -> row.contains("`" + library.coordinates() + "`") && row.endsWith("| " + version + " |")),
                    "docs/codecs.md has no row naming `" + library.coordinates() + "` at " + version);
        }
    }

    /** The example error is the one JacksonCodec.cbor gives (OptionalLibrariesTest sees it given on a class path without the jar). */
    @Test
    void theExampleErrorIsTheOneTheCodeGives() throws Exception {
        String message = OptionalLibrary.JACKSON_CBOR.missingMessage("JacksonCodec.cbor");
        assertTrue(Files.readString(DOC).contains("\n" + message + "\n"), message);
    }

    @Test
    void theBomManagesTheModule() throws Exception {
        String bom = Files.readString(Path.of("../commitlog-bom/pom.xml"));
        Matcher m = Pattern.compile("<artifactId>commitlog-codecs</artifactId>\\s*<version>\\$\\{project.version}</version>").matcher(bom);
        assertTrue(m.find(), "commitlog-bom manages commitlog-codecs");
    }
}
