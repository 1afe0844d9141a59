package dev.commitlog;

import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles the Java blocks of a Markdown document against the test class path, so that a test
 * fails when the document's code drifts from the API (README's and docs/raft.md's snippets).
 */
public final class SnippetCompiler {
    private SnippetCompiler() {
    }

    /** The bodies of the document's {@code ```java} blocks, in order. */
    public static List<String> javaBlocks(String markdown) {
        List<String> blocks = new ArrayList<>();
        Matcher m = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(markdown);
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    /**
     * Compiles {@code before + snippet + after} as one source file into {@code out}.
     *
     * @return the errors, each with its line number within the snippet; empty if it compiles
     */
    public static List<String> compile(String before, String snippet, String after, Path out) throws Exception {
        String source = before + snippet + after;
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///Snippet.java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, null, null)) {
            List<String> options = List.of("--release", "17", "-classpath", System.getProperty("java.class.path"), "-d", out.toString());
            compiler.getTask(new StringWriter(), files, diagnostics, options, null, List.of(file)).call();
        }
        long beforeLines = before.lines().count();
        return diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .map(d -> "line " + (d.getLineNumber() - beforeLines) + ": " + d.getMessage(null)).toList();
    }
}
