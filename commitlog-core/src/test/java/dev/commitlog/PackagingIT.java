package dev.commitlog;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
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

    /**
     * docs/compatibility.md's API table names exactly the top-level types of the published javadoc,
     * and the jar's public types in those packages are exactly these: an internal class left in an
     * API package, or a documented type missing from the table, fails here.
     */
    @Test
    void theCompatibilityTableIsExactlyThePublishedJavadocAndTheApiPackagesHoldNothingElse() throws Exception {
        Map<String, Set<String>> table = apiTable(Files.readString(ROOT.resolve("docs/compatibility.md")));
        assertTrue(table.containsKey("dev.commitlog") && table.size() >= 5, "the table was read: " + table);
        String base = JAR.getFileName().toString().replace(".jar", "");
        Map<String, Set<String>> javadoc = new TreeMap<>();
        try (JarFile jar = new JarFile(JAR.resolveSibling(base + "-javadoc.jar").toFile())) {
            jar.stream().map(JarEntry::getName).filter(name -> name.matches("dev/commitlog/([a-z]+/)*[A-Z][A-Za-z0-9]*\\.html"))
                    .forEach(name -> add(javadoc, name.substring(0, name.lastIndexOf('/')).replace('/', '.'),
                            name.substring(name.lastIndexOf('/') + 1, name.length() - ".html".length())));
        }
        assertEquals(table, javadoc, "docs/compatibility.md's API table and the published javadoc");
        Map<String, Set<String>> publicInApiPackages = new TreeMap<>();
        try (JarFile jar = new JarFile(JAR.toFile())) {
            for (JarEntry entry : jar.stream().toList()) {
                String name = entry.getName();
                if (!name.endsWith(".class") || name.contains("$") || name.endsWith("package-info.class")) {
                    continue;
                }
                String pkg = name.substring(0, name.lastIndexOf('/')).replace('/', '.');
                String type = name.substring(name.lastIndexOf('/') + 1, name.length() - ".class".length());
                if (table.containsKey(pkg) && isPublic(jar, entry)) {
                    add(publicInApiPackages, pkg, type);
                }
            }
        }
        assertEquals(table, publicInApiPackages, "the public types of the API packages in the jar");
    }

    /** The {@code | `package` | `Type`, `Type` |} rows of the API section. */
    private static Map<String, Set<String>> apiTable(String policy) {
        String section = policy.substring(policy.indexOf("## API"), policy.indexOf("## Configuration and tools"));
        Map<String, Set<String>> table = new TreeMap<>();
        Matcher row = Pattern.compile("^\\| `(dev\\.commitlog[a-z.]*)` \\| (.*) \\|$", Pattern.MULTILINE).matcher(section);
        while (row.find()) {
            Matcher type = Pattern.compile("`([A-Za-z0-9]+)`").matcher(row.group(2));
            while (type.find()) {
                add(table, row.group(1), type.group(1));
            }
        }
        return table;
    }

    private static void add(Map<String, Set<String>> types, String pkg, String type) {
        types.computeIfAbsent(pkg, k -> new TreeSet<>()).add(type);
    }

    /** Whether the class file's access flags say public (the u2 after magic, versions and the constant pool). */
    private static boolean isPublic(JarFile jar, JarEntry entry) throws IOException {
        try (InputStream in = jar.getInputStream(entry)) {
            return (ClassFileAccess.read(in) & 0x0001) != 0;
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
