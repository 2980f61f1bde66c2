package dev.openaccel.runtime.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * The layer picture of {@code docs/ARCHITECTURE.md} as rules on the runtime's production classes:
 * public API -> {@code internal} (the facade wiring) -> {@code internal.engine} -> SPI. The public
 * packages ({@code dev.openaccel.runtime}, {@code .actor}, {@code .trace}) and the SPI may name
 * each other's types where the contract does, and every layer may use the public value types. A
 * failure names the rule it breaks.
 */
class LayersTest {
  private static final JavaClasses RUNTIME =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
          .importPackages("dev.openaccel.runtime");
  private static final String API = "dev.openaccel.runtime";
  private static final String ACTOR = "dev.openaccel.runtime.actor..";
  private static final String TRACE = "dev.openaccel.runtime.trace..";
  private static final String INTERNAL = "dev.openaccel.runtime.internal";
  private static final String ENGINE = "dev.openaccel.runtime.internal.engine..";
  private static final String SPI = "dev.openaccel.runtime.spi..";

  private static final ArchRule layers =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("API")
          .definedBy(API, ACTOR, TRACE)
          .layer("Internal")
          .definedBy(INTERNAL)
          .layer("Engine")
          .definedBy(ENGINE)
          .layer("SPI")
          .definedBy(SPI)
          .whereLayer("Internal")
          .mayOnlyBeAccessedByLayers("API")
          .whereLayer("Engine")
          .mayOnlyBeAccessedByLayers("Internal")
          .as("runtime layers: API -> internal -> internal.engine -> SPI")
          .because(
              "the facade wiring is reached only from the public API, and the engine only from"
                  + " the facade wiring (docs/ARCHITECTURE.md)");

  private static final ArchRule spiImportsNeitherInternalNorEngine =
      noClasses()
          .that()
          .resideInAPackage(SPI)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(INTERNAL, ENGINE)
          .as("the SPI imports neither internal nor internal.engine")
          .because("backends compile against the SPI and the public API only");

  private static final ArchRule engineDoesNotImportTheFacadeWiring =
      noClasses()
          .that()
          .resideInAPackage(ENGINE)
          .should()
          .dependOnClassesThat()
          .resideInAPackage(INTERNAL)
          .as("internal.engine does not import internal")
          .because("the engine sits below the facade wiring that creates it");

  private static final ArchRule publicApiDoesNotReachTheEngine =
      noClasses()
          .that()
          .resideInAnyPackage(API, ACTOR, TRACE)
          .should()
          .dependOnClassesThat()
          .resideInAPackage(ENGINE)
          .as("the public API packages do not import internal.engine")
          .because("the public API reaches the engine only through the facade wiring (internal)");

  private static final ArchRule internalAndEngineHaveNoCycle =
      slices()
          .assignedFrom(new InternalPackages())
          .should()
          .beFreeOfCycles()
          .as("no package cycle between internal and internal.engine")
          .because("internal uses internal.engine, never the reverse");

  private static final ArchRule noStaticMutableState =
      fields()
          .that()
          .areStatic()
          .should()
          .beFinal()
          .as("every static field of the runtime is final")
          .because(
              "two accelerators in one JVM (two cluster nodes in a test) share no mutable state,"
                  + " and no module reaches another's through a static");

  @Test
  void noStaticFieldIsReassignable() {
    noStaticMutableState.check(RUNTIME);
  }

  @Test
  void layersFollowTheArchitecture() {
    layers.check(RUNTIME);
  }

  @Test
  void spiImportsNeitherInternalNorEngine() {
    spiImportsNeitherInternalNorEngine.check(RUNTIME);
  }

  @Test
  void engineDoesNotImportTheFacadeWiring() {
    engineDoesNotImportTheFacadeWiring.check(RUNTIME);
  }

  @Test
  void publicApiDoesNotReachTheEngine() {
    publicApiDoesNotReachTheEngine.check(RUNTIME);
  }

  @Test
  void internalAndEngineHaveNoCycle() {
    internalAndEngineHaveNoCycle.check(RUNTIME);
  }

  /** One slice for {@code internal}, one for {@code internal.engine}; other classes ignored. */
  private static final class InternalPackages implements SliceAssignment {
    @Override
    public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
      String name = javaClass.getPackageName();
      if (name.equals("dev.openaccel.runtime.internal")) {
        return SliceIdentifier.of("internal");
      }
      if (name.startsWith("dev.openaccel.runtime.internal.engine")) {
        return SliceIdentifier.of("internal.engine");
      }
      return SliceIdentifier.ignore();
    }

    @Override
    public String getDescription() {
      return "the packages internal and internal.engine";
    }
  }
}
