package dev.openaccel.micrometer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The metrics module's place in the layers of {@code docs/ARCHITECTURE.md}: it reads an accelerator
 * through the runtime's public API (the trace bus included) only, never its SPI or its {@code
 * internal} packages. A failure names the rule.
 */
class LayersTest {
  private static final JavaClasses METRICS =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
          .importPackages("dev.openaccel.micrometer");

  @Test
  void usesThePublicApiOnly() {
    noClasses()
        .that()
        .resideInAPackage("dev.openaccel.micrometer..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.openaccel.runtime.internal..", "dev.openaccel.runtime.spi..")
        .as("the metrics module imports neither dev.openaccel.runtime.internal nor .spi")
        .because("a binder observes an accelerator as any user does")
        .check(METRICS);
  }

  @Test
  void noStaticFieldIsReassignable() {
    fields()
        .that()
        .areStatic()
        .should()
        .beFinal()
        .as("every static field of the metrics module is final")
        .because("two accelerators in one JVM, and their binders, share no mutable state")
        .check(METRICS);
  }
}
