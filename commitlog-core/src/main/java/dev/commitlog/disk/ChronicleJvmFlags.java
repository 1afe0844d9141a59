package dev.commitlog.disk;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The JVM flags the commit log runs with, one block per JDK, and a check that this JVM has what
 * Chronicle Bytes (which maps the segment files) cannot work without. This class is the one
 * definition of the blocks: docs/operations.md ("JVM flags") prints them, the parent pom gives them
 * to the tests and the runnable jars carry them in their manifests, and tests compare each of those
 * with this class.
 *
 * <ul>
 * <li>JDK 17 to 22: the packages Chronicle reaches into, opened ({@code --add-opens}: deep
 *     reflection) or exported ({@code --add-exports}) to the class path.
 * <li>JDK 23 and later: the same and {@code --sun-misc-unsafe-memory-access=allow}. Chronicle reads
 *     and writes memory through {@code sun.misc.Unsafe}; JDK 23 added the flag (JEP 471), JDK 24
 *     made the default {@code warn} (JEP 498: four warning lines on stderr at the first use), and
 *     {@code deny} makes Chronicle fail. JDK 17 to 22 refuse to start with an unknown flag, hence
 *     two blocks.
 * </ul>
 * No {@code --enable-native-access}: with the native back-ends of Chronicle's POSIX binding left
 * out (commitlog-core's pom excludes JNR and JNA), nothing the library loads calls a restricted
 * method.
 *
 * <p>{@link #check()} finds a missing opening or export first, from the module system alone
 * ({@link Module#isOpen} and {@link Module#isExported}: no reflection, nothing loaded from
 * Chronicle but two class objects, not initialised), and memory access denied from the property
 * the JDK sets for the flag. Without them Chronicle fails deep inside its own code (a
 * {@code ClassCastException}, an {@code IllegalAccessError}, an {@code UnsupportedOperationException})
 * after the log has created files. A missing {@code allow} on JDK 24 and later costs only the JDK's
 * warning, so the check does not refuse it; the error message prints the whole block anyway. Not
 * every code path of Chronicle needs each opening (a plain open, append and close runs without the
 * {@code java.nio} one), but a JVM started with fewer is one nobody has tested, so all are required.
 */
public final class ChronicleJvmFlags {
    /** One package Chronicle needs: opened (deep reflection) or only exported. */
    record Access(String module, String pkg, boolean open) {
        String flag(String target) {
            return (open ? "--add-opens=" : "--add-exports=") + module + "/" + pkg + "=" + target;
        }
    }

    static final List<Access> REQUIRED = List.of(
            new Access("java.base", "java.lang", true),
            new Access("java.base", "java.lang.reflect", true),
            new Access("java.base", "java.io", true),
            new Access("java.base", "java.util", true),
            new Access("java.base", "java.nio", true),
            new Access("java.base", "sun.nio.ch", true),
            new Access("java.base", "jdk.internal.ref", false),
            new Access("java.base", "sun.nio.ch", false),
            new Access("jdk.unsupported", "sun.misc", false));

    /** The oldest JDK the library runs on (it is compiled with {@code --release 17}). */
    static final int OLDEST_JDK = 17;
    /** The first JDK that knows {@code --sun-misc-unsafe-memory-access} (JEP 471). */
    static final int MEMORY_ACCESS_FLAG_SINCE = 23;
    static final String MEMORY_ACCESS_ALLOW = "--sun-misc-unsafe-memory-access=allow";
    /** The system property the JDK sets from {@code --sun-misc-unsafe-memory-access}. */
    private static final String MEMORY_ACCESS_PROPERTY = "sun.misc.unsafe.memory.access";

    /** Chronicle's classes whose modules need the access: chronicle-bytes and chronicle-core. */
    private static final String[] CHRONICLE_CLASSES = {"net.openhft.chronicle.bytes.Bytes", "net.openhft.chronicle.core.Jvm"};

    private ChronicleJvmFlags() {
    }

    /**
     * Throws unless this JVM gives Chronicle every access it needs.
     *
     * @throws IllegalStateException naming what is missing, and printing the block for this JDK,
     *                               ready to paste onto a java command line
     */
    public static void check() {
        List<String> problems = new ArrayList<>();
        List<String> missing = missing();
        if (!missing.isEmpty()) {
            problems.add("missing " + String.join(" ", missing));
        }
        if (memoryAccessDenied()) {
            problems.add("sun.misc.Unsafe memory access is denied (--sun-misc-unsafe-memory-access=deny; Chronicle Bytes "
                    + "reads and writes the mapped segments through it)");
        }
        if (!problems.isEmpty()) {
            int jdk = Runtime.version().feature();
            throw new IllegalStateException("the commit log needs JVM flags this JVM was started without (Chronicle Bytes, "
                    + "which maps the segment files, reaches into JDK internals): " + String.join("; ", problems)
                    + ". The flags for " + blockName(jdk) + " (docs/operations.md, \"JVM flags\"; in Maven, surefire's argLine; "
                    + "in Gradle, jvmArgs): " + String.join(" ", block(jdk)));
        }
    }

    /** The openings and exports Chronicle needs, for a class path (unnamed module) set-up: every JDK's block holds them. */
    public static List<String> required() {
        return REQUIRED.stream().map(access -> access.flag("ALL-UNNAMED")).toList();
    }

    /** The flags to start this JDK with: {@link #block(int)} for the running JDK. */
    public static List<String> block() {
        return block(Runtime.version().feature());
    }

    /**
     * The flags to start JDK {@code jdk} (its feature release: 17, 21, 25...) with, one flag per
     * element, for a class path set-up.
     *
     * @throws IllegalArgumentException if {@code jdk} is below 17, which the library does not run on
     */
    public static List<String> block(int jdk) {
        if (jdk < OLDEST_JDK) {
            throw new IllegalArgumentException("JDK " + jdk + ": the commit log runs on JDK " + OLDEST_JDK + " and later");
        }
        List<String> block = new ArrayList<>(required());
        if (jdk >= MEMORY_ACCESS_FLAG_SINCE) {
            block.add(MEMORY_ACCESS_ALLOW);
        }
        return List.copyOf(block);
    }

    /** Which JDKs share {@code jdk}'s block, as docs/operations.md heads it: "JDK 17 to 22" or "JDK 23 and later". */
    public static String blockName(int jdk) {
        block(jdk); // the same refusal below 17
        return jdk >= MEMORY_ACCESS_FLAG_SINCE ? "JDK " + MEMORY_ACCESS_FLAG_SINCE + " and later"
                : "JDK " + OLDEST_JDK + " to " + (MEMORY_ACCESS_FLAG_SINCE - 1);
    }

    /** The openings as a runnable jar's {@code Add-Opens} manifest attribute lists them (JDK 17 and later honour it). */
    public static String manifestAddOpens() {
        return manifestList(true);
    }

    /** The exports as a runnable jar's {@code Add-Exports} manifest attribute lists them. */
    public static String manifestAddExports() {
        return manifestList(false);
    }

    private static String manifestList(boolean open) {
        return String.join(" ", REQUIRED.stream().filter(access -> access.open() == open).map(access -> access.module() + "/" + access.pkg()).toList());
    }

    /** The openings and exports missing from this JVM, in the order of {@link #REQUIRED}; empty when all are there. */
    public static List<String> missing() {
        Set<String> flags = new LinkedHashSet<>();
        for (Module target : chronicleModules()) {
            String targetName = target.isNamed() ? target.getName() : "ALL-UNNAMED";
            for (Access access : REQUIRED) {
                Optional<Module> source = ModuleLayer.boot().findModule(access.module());
                if (source.isEmpty()) {
                    continue; // a runtime image without the module: nothing to open, and Chronicle copes
                }
                boolean granted = access.open() ? source.get().isOpen(access.pkg(), target) : source.get().isExported(access.pkg(), target);
                if (!granted) {
                    flags.add(access.flag(targetName));
                }
            }
        }
        return new ArrayList<>(flags);
    }

    /** Whether this JVM was started with {@code --sun-misc-unsafe-memory-access=deny} (JDK 23 and later). */
    static boolean memoryAccessDenied() {
        return "deny".equals(System.getProperty(MEMORY_ACCESS_PROPERTY));
    }

    private static Set<Module> chronicleModules() {
        Set<Module> modules = new LinkedHashSet<>();
        ClassLoader loader = ChronicleJvmFlags.class.getClassLoader();
        for (String name : CHRONICLE_CLASSES) {
            try {
                modules.add(Class.forName(name, false, loader).getModule());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("Chronicle Bytes is not on the class path (" + name + " not found); "
                        + "the commit log depends on net.openhft:chronicle-bytes", e);
            }
        }
        return modules;
    }
}
