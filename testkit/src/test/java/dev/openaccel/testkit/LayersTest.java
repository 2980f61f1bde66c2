package dev.openaccel.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The testkit's place in the layers of {@code docs/ARCHITECTURE.md}: it drives an accelerator
 * through the runtime's public API (the trace bus included) only, never its SPI or its {@code
 * internal} packages. A failure names the rule.
 */
class LayersTest {
  private static final JavaClasses TESTKIT =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
          .importPackages("dev.openaccel.testkit");

  @Test
  void usesThePublicApiOnly() {
    noClasses()
        .that()
        .resideInAPackage("dev.openaccel.testkit..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.openaccel.runtime.internal..", "dev.openaccel.runtime.spi..")
        .as("the testkit imports neither dev.openaccel.runtime.internal nor .spi")
        .because("a test sees an accelerator as any user does")
        .check(TESTKIT);
  }

  @Test
  void noStaticFieldIsReassignable() {
    fields()
        .that()
        .areStatic()
        .should()
        .beFinal()
        .as("every static field of the testkit is final")
        .because("test classes that run side by side share no mutable state")
        .check(TESTKIT);
  }
}
