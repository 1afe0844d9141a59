package dev.commitlog.disk;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The JDK packages Chronicle Bytes (which maps the segment files) reaches into, and a check that
 * this JVM opened or exported them to it. Without them Chronicle fails deep inside its own code
 * (a {@code ClassCastException} or {@code IllegalAccessError}) after the log has created files;
 * {@link #check()} finds out first, from the module system alone ({@link Module#isOpen} and
 * {@link Module#isExported}: no reflection, nothing loaded from Chronicle but two class objects,
 * not initialised), and names the flags to add.
 *
 * <p>The list is the one the runnable jars carry in their manifests ({@code Add-Opens},
 * {@code Add-Exports}): the set every test, tool and benchmark here runs with. Not every code path
 * of Chronicle needs each one (a plain open, append and close runs without the {@code java.nio}
 * opening), but a JVM started with fewer is one nobody has tested, so all are required. The parent
 * pom's {@code chronicle.jvm.flags} adds two {@code jdk.compiler} ones that Chronicle's code
 * generation uses and this library does not.
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

    /** Chronicle's classes whose modules need the access: chronicle-bytes and chronicle-core. */
    private static final String[] CHRONICLE_CLASSES = {"net.openhft.chronicle.bytes.Bytes", "net.openhft.chronicle.core.Jvm"};

    private ChronicleJvmFlags() {
    }

    /**
     * Throws unless this JVM gives Chronicle every access it needs.
     *
     * @throws IllegalStateException naming each missing flag, ready to paste onto a java command line
     */
    public static void check() {
        List<String> missing = missing();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the commit log needs JVM flags this JVM was started without (Chronicle Bytes, "
                    + "which maps the segment files, reaches into JDK internals). Add them to the java command line, "
                    + "or to surefire's argLine / Gradle's jvmArgs (see README, \"JVM flags\"): " + String.join(" ", missing));
        }
    }

    /** Every flag required, for a class path (unnamed module) set-up: what README's "JVM flags" lists. */
    public static List<String> required() {
        return REQUIRED.stream().map(access -> access.flag("ALL-UNNAMED")).toList();
    }

    /** The flags missing from this JVM, in the order of {@link #REQUIRED}; empty when all are there. */
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
