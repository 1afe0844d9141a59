package dev.commitlog.bench.sut;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * The commit log of another build, loaded from its {@code commitlog-core} jar (or classes
 * directory) beside this build's, so that {@code pair} can put two engines side by side in one
 * JVM, slice by slice: the before-and-after of an engine change, measured as any other pair.
 * Only the engine's own classes ({@code dev.commitlog.*}) come from the baseline; its dependencies
 * (Chronicle Bytes, the Disruptor, JCTools, SLF4J) are this build's, so the baseline must have been
 * built against the same versions. Reached through its public API only (open with a config of a
 * mode and a Group window, {@code append(byte[], int, int)}, {@code metrics()}, {@code close()}),
 * the append through a bound method handle.
 */
public final class BaselineContender implements Contender {
    private final Path location;
    private final String mode;
    private final Duration groupWindow;
    private final ClassLoader loader;

    /**
     * @param location    the baseline's commitlog-core jar or classes directory
     * @param mode        {@code periodic}, {@code batch}, {@code group} or {@code adaptive} (as the baseline names it)
     * @param groupWindow Group's window, or null
     */
    public BaselineContender(Path location, String mode, Duration groupWindow) throws IOException {
        if (!Files.exists(location)) {
            throw new IOException("baseline engine " + location + " does not exist (give a commitlog-core jar or classes directory)");
        }
        this.location = location;
        this.mode = mode;
        this.groupWindow = groupWindow;
        this.loader = new EngineFirstLoader(location, BaselineContender.class.getClassLoader());
    }

    @Override
    public String system() {
        return "commitlog-baseline";
    }

    @Override
    public String mode() {
        return "baseline-" + (groupWindow == null ? mode : mode + "-" + groupWindow.toMillis() + "ms");
    }

    @Override
    public boolean durable() {
        return !mode.equals("periodic");
    }

    @Override
    public boolean ablation() {
        return true; // shown, never judged against the targets
    }

    @Override
    public String settings() {
        return mode() + ": the commit log of the build at " + location + ", " + mode + " mode, library defaults";
    }

    /** The class loader the baseline's engine lives in; for tests. */
    ClassLoader loader() {
        return loader;
    }

    @Override
    public SystemUnderTest open(Path directory, int recordBytes) throws IOException {
        try {
            Class<?> configClass = loader.loadClass("dev.commitlog.config.CommitLogConfig");
            Class<?> modeClass = loader.loadClass("dev.commitlog.config.SyncMode");
            Object builder = configClass.getMethod("builder", Path.class).invoke(null, directory);
            Class<?> builderClass = builder.getClass();
            builderClass.getMethod("syncMode", modeClass).invoke(builder, enumConstant(modeClass, mode.toUpperCase(Locale.ROOT)));
            if (groupWindow != null) {
                builderClass.getMethod("groupWindow", Duration.class).invoke(builder, groupWindow);
            }
            Object config = builderClass.getMethod("build").invoke(builder);
            Class<?> logClass = loader.loadClass("dev.commitlog.CommitLog");
            Object log = logClass.getMethod("open", configClass).invoke(null, config);
            MethodHandle append = MethodHandles.publicLookup()
                    .findVirtual(logClass, "append", MethodType.methodType(long.class, byte[].class, int.class, int.class))
                    .bindTo(log);
            return new Opened(log, append);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("baseline engine failed to open: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IOException("baseline engine at " + location + " lacks the API this harness uses: " + e, e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(Class<?> enumClass, String name) {
        return Enum.valueOf((Class) enumClass, name);
    }

    private static final class Opened implements SystemUnderTest {
        private final Object log;
        private final MethodHandle append;

        Opened(Object log, MethodHandle append) {
            this.log = log;
            this.append = append;
        }

        @Override
        public Appender newAppender(int threadIndex) {
            return record -> {
                try {
                    long ignored = (long) append.invokeExact(record, 0, record.length); // invokeExact needs the exact return type
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Throwable e) {
                    throw new IOException(e);
                }
            };
        }

        @Override
        public FlushCounters flushCounters() {
            try {
                Method snapshot = log.getClass().getMethod("metrics");
                Object metrics = snapshot.invoke(log);
                // Through the declared type (public), not the snapshot's class, which may be a non-public implementation.
                Class<?> type = snapshot.getReturnType();
                long flushes = (long) type.getMethod("flushes").invoke(metrics);
                long records = (long) type.getMethod("recordsFlushed").invoke(metrics);
                return new FlushCounters(flushes, records);
            } catch (ReflectiveOperationException e) {
                return FlushCounters.UNKNOWN;
            }
        }

        @Override
        public void close() throws IOException {
            try {
                log.getClass().getMethod("close").invoke(log);
            } catch (InvocationTargetException e) {
                throw new IOException("baseline engine failed to close: " + e.getCause(), e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IOException(e);
            }
        }
    }

    /** Loads the engine's own classes from the baseline first, everything else from this build. */
    private static final class EngineFirstLoader extends URLClassLoader {
        EngineFirstLoader(Path location, ClassLoader parent) throws MalformedURLException {
            super(new URL[] {location.toUri().toURL()}, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("dev.commitlog.") || name.startsWith("dev.commitlog.bench.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    loaded = findClass(name);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }
    }
}
