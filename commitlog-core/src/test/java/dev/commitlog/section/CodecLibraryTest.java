package dev.commitlog.section;

import static org.junit.jupiter.api.Assertions.*;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each compression library is an optional dependency of commitlog-core: a configured codec whose jar
 * is missing fails when its compressor is made, with one error naming the jar's Maven coordinates
 * and the version tested here (the parent pom's), never a {@code NoClassDefFoundError}. Each case
 * runs {@link MissingCodecProbe} in a class loader over this test's class path minus the jar named.
 */
class CodecLibraryTest {
    @Test
    void lz4WithoutItsJarNamesIt() throws Exception {
        String result = probe("LZ4", "lz4-java");
        assertEquals("java.lang.IllegalStateException: commitlog_compression: lz4 needs at.yawk.lz4:lz4-java on the class path "
                + "(commitlog-core was tested with " + parentPomProperty("lz4.version") + "; it declares each compression library "
                + "optional, so add the one you configure): class net.jpountz.lz4.LZ4Factory not found", result);
    }

    @Test
    void zstdWithoutItsJarNamesIt() throws Exception {
        String result = probe("ZSTD", "zstd-jni");
        assertTrue(result.startsWith("java.lang.IllegalStateException: commitlog_compression: zstd needs com.github.luben:zstd-jni "
                + "on the class path (commitlog-core was tested with " + parentPomProperty("zstd.version") + ";"), result);
    }

    /** {@code CommitLog.open} refuses the codec whose jar is missing, naming the jar, before it touches the directory. */
    @Test
    void anOpenWithoutTheJarIsRefusedNamingIt(@TempDir Path parent) throws Exception {
        Path dir = parent.resolve("log");
        String result = invoke("open", new Object[] {"LZ4", dir.toString()}, "lz4-java");
        assertTrue(result.startsWith("dev.commitlog.config.ConfigException: commitlog_compression: lz4 needs at.yawk.lz4:lz4-java "
                + "on the class path"), result);
        assertFalse(Files.exists(dir), "nothing was created");
        assertEquals("opened ZSTD", invoke("open", new Object[] {"ZSTD", dir.toString()}, "lz4-java"));
    }

    /** One codec's jar missing does not stop the other, nor a log without compression. */
    @Test
    void theOtherCodecsWorkWithoutIt() throws Exception {
        assertEquals("made codec " + SectionDescriptor.CODEC_ZSTD, probe("ZSTD", "lz4-java"));
        assertEquals("made codec " + SectionDescriptor.CODEC_LZ4, probe("LZ4", "zstd-jni"));
        assertTrue(probe("NONE", "lz4-java", "zstd-jni").startsWith("java.lang.NullPointerException"),
                "none makes no compressor (the probe's try-with-resources gets null)");
    }

    /** The probe's answer, run where the jars whose artifactIds are given are not on the class path. */
    private static String probe(String codec, String... missingArtifacts) throws Exception {
        return invoke("run", new Object[] {codec}, missingArtifacts);
    }

    /** The probe's static method {@code method} (String arguments), run where the named jars are not on the class path. */
    private static String invoke(String method, Object[] arguments, String... missingArtifacts) throws Exception {
        List<URL> urls = new ArrayList<>();
        List<String> left = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(Pattern.quote(File.pathSeparator))) {
            String name = Path.of(entry).getFileName().toString();
            boolean missing = false;
            for (String artifact : missingArtifacts) {
                missing |= name.matches(Pattern.quote(artifact) + "-\\d.*\\.jar");
            }
            if (missing) {
                left.add(name);
            } else {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        assertEquals(missingArtifacts.length, left.size(), "each jar left out was on the class path: " + left);
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Class<?> probe = Class.forName(MissingCodecProbe.class.getName(), true, loader);
            assertNotSame(MissingCodecProbe.class, probe, "the probe runs in its own loader");
            Class<?>[] types = new Class<?>[arguments.length];
            java.util.Arrays.fill(types, String.class);
            return (String) probe.getMethod(method, types).invoke(null, arguments);
        }
    }

    private static String parentPomProperty(String name) throws Exception {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(Files.readString(Path.of("../pom.xml")));
        assertTrue(m.find(), name + " in the parent pom");
        return m.group(1);
    }
}
