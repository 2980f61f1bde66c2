package dev.openaccel.opencl;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The OpenCL backend's place in the layers of {@code docs/ARCHITECTURE.md}: of OpenAccel, it uses
 * the public API and the SPI only, never the runtime's {@code internal} packages (the facade wiring
 * and the engine). Third-party libraries are not restricted here. A failure names the rule.
 */
class LayersTest {
  private static final JavaClasses BACKEND =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
          .importPackages("dev.openaccel.opencl");

  private static final ArchRule usesOnlyPublicApiAndSpi =
      noClasses()
          .that()
          .resideInAPackage("dev.openaccel.opencl..")
          .should()
          .dependOnClassesThat(
              resideInAPackage("dev.openaccel..")
                  .and(
                      not(
                          resideInAnyPackage(
                              "dev.openaccel.opencl..",
                              "dev.openaccel.runtime",
                              "dev.openaccel.runtime.actor..",
                              "dev.openaccel.runtime.trace..",
                              "dev.openaccel.runtime.spi.."))))
          .as("the OpenCL backend uses only OpenAccel's public API and SPI")
          .because("a backend plugs in through the SPI and never reaches the runtime's internals");

  @Test
  void usesOnlyThePublicApiAndTheSpi() {
    usesOnlyPublicApiAndSpi.check(BACKEND);
  }
}
