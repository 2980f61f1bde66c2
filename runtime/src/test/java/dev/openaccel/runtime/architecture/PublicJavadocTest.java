package dev.openaccel.runtime.architecture;

import static org.junit.jupiter.api.Assertions.fail;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Every public declaration of the public packages of {@link ProductionSources} (all but those named
 * {@code internal}) has a javadoc comment: each public type, and its public and protected
 * constructors, methods, fields and enum constants (an interface's members are public unless
 * private). A method marked {@code @Override} takes its documentation from what it overrides,
 * except a record's accessor, which overrides nothing. These are the declarations javac's {@code
 * -Xdoclint:missing/protected} reports as "no comment", without that option's demand for a tag per
 * parameter and result; as there, a default constructor (absent from the source) is not checked.
 * The sources are parsed, not compiled, so the check needs no module's class path.
 */
class PublicJavadocTest {

  @Test
  void everyPublicDeclarationOfThePublicPackagesHasJavadoc() throws IOException {
    List<String> missing = undocumented(ProductionSources.files());
    if (!missing.isEmpty()) {
      fail(
          missing.size()
              + " public declarations have no javadoc; give each a comment (one summary sentence,"
              + " then what a caller must know):\n  "
              + String.join("\n  ", missing));
    }
  }

  private static List<String> undocumented(List<Path> files) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager fileManager = javac.getStandardFileManager(null, null, null)) {
      JavacTask task =
          (JavacTask)
              javac.getTask(
                  null,
                  fileManager,
                  diagnostics,
                  List.of("-proc:none"),
                  null,
                  fileManager.getJavaFileObjectsFromPaths(files));
      Iterable<? extends CompilationUnitTree> units = task.parse();
      for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
        if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
          throw new IllegalStateException("cannot parse the sources: " + diagnostic);
        }
      }
      Checker checker = new Checker(DocTrees.instance(task));
      for (CompilationUnitTree unit : units) {
        if (!isInternal(unit)) {
          checker.checkUnit(unit);
        }
      }
      return checker.missing;
    }
  }

  private static boolean isInternal(CompilationUnitTree unit) {
    Tree name = unit.getPackageName();
    return name != null && List.of(name.toString().split("\\.")).contains("internal");
  }

  /** Walks the types of one compilation unit at a time and lists what has no comment. */
  private static final class Checker {
    private final DocTrees trees;
    private final List<String> missing = new ArrayList<>();
    private CompilationUnitTree unit;

    Checker(DocTrees trees) {
      this.trees = trees;
    }

    void checkUnit(CompilationUnitTree unit) {
      this.unit = unit;
      TreePath root = new TreePath(unit);
      for (Tree declaration : unit.getTypeDecls()) {
        if (declaration instanceof ClassTree type && has(type.getModifiers(), Modifier.PUBLIC)) {
          checkType(new TreePath(root, type), type, type.getSimpleName().toString());
        }
      }
    }

    private void checkType(TreePath path, ClassTree type, String name) {
      require(path, kind(type) + " " + name);
      boolean interfaceLike =
          type.getKind() == Tree.Kind.INTERFACE || type.getKind() == Tree.Kind.ANNOTATION_TYPE;
      Set<String> components = recordComponents(type);
      for (Tree member : type.getMembers()) {
        TreePath memberPath = new TreePath(path, member);
        if (member instanceof ClassTree nested) {
          if (exposed(nested.getModifiers(), interfaceLike)) {
            checkType(memberPath, nested, name + "." + nested.getSimpleName());
          }
        } else if (member instanceof MethodTree method) {
          if (exposed(method.getModifiers(), interfaceLike) && !inherits(method, components)) {
            require(memberPath, signature(name, method));
          }
        } else if (member instanceof VariableTree field) {
          if (exposed(field.getModifiers(), interfaceLike)) { // enum constants are public
            String what = isEnumConstant(type, field) ? "enum constant " : "field ";
            require(memberPath, what + name + "." + field.getName());
          }
        }
      }
    }

    private void require(TreePath path, String what) {
      if (trees.getDocComment(path) == null) {
        long start = trees.getSourcePositions().getStartPosition(unit, path.getLeaf());
        long line = unit.getLineMap().getLineNumber(start);
        missing.add(
            ProductionSources.name(Path.of(unit.getSourceFile().toUri()))
                + ":"
                + line
                + ": "
                + what);
      }
    }

    private static boolean exposed(ModifiersTree modifiers, boolean interfaceMember) {
      if (interfaceMember) {
        return !has(modifiers, Modifier.PRIVATE);
      }
      return has(modifiers, Modifier.PUBLIC) || has(modifiers, Modifier.PROTECTED);
    }

    /** Marked {@code @Override}, and not a record's accessor (which overrides nothing). */
    private static boolean inherits(MethodTree method, Set<String> components) {
      boolean accessor =
          method.getParameters().isEmpty() && components.contains(method.getName().toString());
      return !accessor
          && method.getModifiers().getAnnotations().stream()
              .map(AnnotationTree::getAnnotationType)
              .map(Tree::toString)
              .anyMatch(type -> type.equals("Override") || type.equals("java.lang.Override"));
    }

    /** The parser writes an enum constant as a field initialized with {@code new TheEnum(...)}. */
    private static boolean isEnumConstant(ClassTree type, VariableTree field) {
      return type.getKind() == Tree.Kind.ENUM
          && field.getInitializer() instanceof NewClassTree creation
          && creation.getIdentifier().toString().contentEquals(type.getSimpleName());
    }

    /** A record's components: the parser keeps them as its only instance fields. */
    private static Set<String> recordComponents(ClassTree type) {
      Set<String> names = new HashSet<>();
      if (type.getKind() == Tree.Kind.RECORD) {
        for (Tree member : type.getMembers()) {
          if (member instanceof VariableTree field && !has(field.getModifiers(), Modifier.STATIC)) {
            names.add(field.getName().toString());
          }
        }
      }
      return names;
    }

    private static String signature(String type, MethodTree method) {
      String parameters =
          method.getParameters().stream()
              .map(parameter -> parameter.getType().toString())
              .collect(Collectors.joining(", "));
      boolean constructor = method.getName().contentEquals("<init>");
      return constructor
          ? "constructor " + type + "(" + parameters + ")"
          : "method " + type + "." + method.getName() + "(" + parameters + ")";
    }

    private static String kind(ClassTree type) {
      return switch (type.getKind()) {
        case INTERFACE -> "interface";
        case ENUM -> "enum";
        case RECORD -> "record";
        case ANNOTATION_TYPE -> "annotation type";
        default -> "class";
      };
    }

    private static boolean has(ModifiersTree modifiers, Modifier modifier) {
      return modifiers.getFlags().contains(modifier);
    }
  }
}
