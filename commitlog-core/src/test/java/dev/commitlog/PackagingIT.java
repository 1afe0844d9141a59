package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What a team adding the library as a dependency gets from {@code package}: the jar with a module
 * name, sources and javadoc jars (internal packages left out), a licence, a BOM naming every
 * published artifact at the build's version, a changelog and a compatibility policy.
 */
class PackagingIT {
    private static final Path ROOT = Path.of("..");
    private static final Path JAR = Path.of(System.getProperty("commitlog.core.jar", "target/commitlog-core.jar"));

    @Test
    void theJarNamesItsModuleAndCarriesTheChronicleFlags() throws Exception {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            var attributes = jar.getManifest().getMainAttributes();
            assertEquals("dev.commitlog.core", attributes.getValue("Automatic-Module-Name"));
            assertTrue(attributes.getValue("Add-Opens").contains("java.base/java.nio"));
        }
    }

    @Test
    void sourcesAndJavadocJarsSitBesideIt() throws Exception {
        String base = JAR.getFileName().toString().replace(".jar", "");
        Path sources = JAR.resolveSibling(base + "-sources.jar");
        Path javadoc = JAR.resolveSibling(base + "-javadoc.jar");
        try (JarFile jar = new JarFile(sources.toFile())) {
            assertNotNull(jar.getEntry("dev/commitlog/CommitLog.java"));
        }
        try (JarFile jar = new JarFile(javadoc.toFile())) {
            assertNotNull(jar.getEntry("dev/commitlog/CommitLog.html"));
            assertNotNull(jar.getEntry("dev/commitlog/RecordHandler.html"));
            assertNull(jar.getEntry("dev/commitlog/sync/SyncService.html"), "internal packages are not documented as API");
        }
    }

    @Test
    void theLicenceIsApache2InTheRepositoryAndThePom() throws Exception {
        String licence = Files.readString(ROOT.resolve("LICENSE"));
        assertTrue(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"));
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        assertTrue(pom.contains("<licenses>") && pom.contains("<name>Apache-2.0</name>"), "parent pom <licenses>");
    }

    @Test
    void theBomManagesEveryPublishedArtifactAtTheBuildsVersion() throws Exception {
        String parent = Files.readString(ROOT.resolve("pom.xml"));
        String bom = Files.readString(ROOT.resolve("commitlog-bom/pom.xml"));
        assertEquals(version(parent), version(bom), "the BOM's version is the build's");
        for (String artifact : new String[] {"commitlog-core", "commitlog-micrometer", "commitlog-codecs", "commitlog-tools"}) {
            assertTrue(bom.contains("<artifactId>" + artifact + "</artifactId>\n        <version>${project.version}</version>"),
                    artifact + " is not managed by the BOM");
        }
    }

    @Test
    void aChangelogAndACompatibilityPolicyShip() throws Exception {
        String changelog = Files.readString(ROOT.resolve("CHANGELOG.md"));
        assertTrue(changelog.contains("## " + version(Files.readString(ROOT.resolve("pom.xml"))).replace("-SNAPSHOT", "")),
                "a section for this version");
        String policy = Files.readString(ROOT.resolve("docs/compatibility.md"));
        assertTrue(policy.contains("Readers of version N read version N-1"));
    }

    /** The first {@code <version>} after the pom's own artifactId. */
    private static String version(String pom) {
        Matcher m = Pattern.compile("<artifactId>commitlog-(?:parent|bom)</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertTrue(m.find(), "no version in the pom");
        return m.group(1);
    }
}
