package dev.podium.architecture;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The length of every method and constructor with a body in some Java sources, read with the JDK's own parser (javac's
 * tree API): ArchUnit and the class-file reading of Java 17 give no method's length. A method's lines run from the line
 * of its name to that of its closing brace; its Javadoc and annotations do not count.
 */
final class MethodLengths {

    /** Methods longer than this many lines need a comment that says why. */
    static final int MAX_LINES = 60;

    /** What the comment before a longer method (its Javadoc or a line comment) says, with the reason. */
    static final String EXPLAINED = "over " + MAX_LINES + " lines";

    /**
     * A method ({@code name} is its type's for a constructor) whose name is on {@code line} of {@code file};
     * {@code explained} when a comment before it says {@link #EXPLAINED}, in any case.
     */
    record Method(Path file, String name, int line, int lines, boolean explained) {

        boolean tooLong() {
            return lines > MAX_LINES && !explained;
        }

        @Override
        public String toString() {
            return file + ":" + line + " " + name + " (" + lines + " lines)";
        }
    }

    private MethodLengths() {}

    /** The methods of {@code files}, which must parse. */
    static List<Method> of(List<Path> files) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fileManager =
                javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            JavacTask task = (JavacTask) javac.getTask(
                    null,
                    fileManager,
                    diagnostics,
                    List.of("-proc:none"),
                    null,
                    fileManager.getJavaFileObjectsFromPaths(files));
            SourcePositions positions = Trees.instance(task).getSourcePositions();
            List<Method> methods = new ArrayList<>();
            for (CompilationUnitTree unit : task.parse()) {
                new Members(unit, positions, methods).scan(unit, null);
            }
            List<Diagnostic<? extends JavaFileObject>> errors = diagnostics.getDiagnostics().stream()
                    .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                    .toList();
            if (!errors.isEmpty()) {
                throw new IllegalArgumentException("sources that do not parse: " + errors);
            }
            return methods;
        }
    }

    /** Visits every type of a file, anonymous and local ones included, and measures its methods. */
    private static final class Members extends TreeScanner<Void, Void> {
        private final CompilationUnitTree unit;
        private final SourcePositions positions;
        private final List<Method> methods;
        private final String text;

        Members(CompilationUnitTree unit, SourcePositions positions, List<Method> methods) throws IOException {
            this.unit = unit;
            this.positions = positions;
            this.methods = methods;
            this.text = unit.getSourceFile().getCharContent(true).toString();
        }

        @Override
        public Void visitClass(ClassTree type, Void unused) {
            // The text between a member and the one before it holds the member's comments.
            long previous = positions.getStartPosition(unit, type);
            for (Tree member : type.getMembers()) {
                long start = positions.getStartPosition(unit, member);
                if (member instanceof MethodTree m && m.getBody() != null && start > previous) {
                    String comments = text.substring((int) previous, (int) start);
                    methods.add(
                            method(type, m, comments.toLowerCase(Locale.ROOT).contains(EXPLAINED)));
                }
                previous = Math.max(previous, positions.getEndPosition(unit, member));
            }
            return super.visitClass(type, unused);
        }

        private Method method(ClassTree type, MethodTree m, boolean explained) {
            String name = m.getName().contentEquals("<init>")
                    ? type.getSimpleName().toString()
                    : m.getName().toString();
            int first = line(namePosition(m));
            int last = line(positions.getEndPosition(unit, m) - 1);
            return new Method(Path.of(unit.getSourceFile().toUri()), name, first, last - first + 1, explained);
        }

        /** Where the name starts: after the modifiers (annotations too), type parameters and return type. */
        private long namePosition(MethodTree m) {
            long after = positions.getStartPosition(unit, m);
            List<Tree> before = new ArrayList<>(m.getTypeParameters());
            before.add(m.getModifiers());
            if (m.getReturnType() != null) {
                before.add(m.getReturnType());
            }
            for (Tree t : before) {
                after = Math.max(after, positions.getEndPosition(unit, t));
            }
            while (after < text.length() && Character.isWhitespace(text.charAt((int) after))) {
                after++;
            }
            return after;
        }

        private int line(long position) {
            return (int) unit.getLineMap().getLineNumber(position);
        }
    }
}
