package dev.openaccel.cluster;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.openaccel.runtime.spi.ConfigValues;
import dev.openaccel.runtime.spi.DeviceThread;
import dev.openaccel.runtime.spi.EventChecks;
import dev.openaccel.runtime.spi.RemoteEvents;
import org.junit.jupiter.api.Test;

/**
 * The cluster module's place in the layers of {@code docs/ARCHITECTURE.md}: it uses the runtime's
 * public API plus one extension point, {@link RemoteEvents}, and none of the runtime's {@code
 * internal} packages. A failure names the rule.
 */
class LayersTest {
  private static final JavaClasses CLUSTER =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
          .importPackages("dev.openaccel.cluster");

  private static final ArchRule noRuntimeInternals =
      noClasses()
          .that()
          .resideInAPackage("dev.openaccel.cluster..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.openaccel.runtime.internal..")
          .as("cluster imports no dev.openaccel.runtime.internal package")
          .because("the cluster module uses the public API and the SPI's RemoteEvents only");

  private static final ArchRule spiOnlyThroughItsExtensionPoint =
      noClasses()
          .that()
          .resideInAPackage("dev.openaccel.cluster..")
          .should()
          .dependOnClassesThat(
              resideInAPackage("dev.openaccel.runtime.spi..")
                  .and(
                      not(
                          belongToAnyOf(
                              RemoteEvents.class,
                              DeviceThread.class,
                              EventChecks.class,
                              ConfigValues.class))))
          .as(
              "cluster uses of the SPI only its extension point RemoteEvents, the checks every"
                  + " Event applies (DeviceThread, EventChecks) and the configuration reader"
                  + " (ConfigValues)")
          .because("the cluster module is no backend: it opens remote events and nothing else");

  @Test
  void importsNoRuntimeInternals() {
    noRuntimeInternals.check(CLUSTER);
  }

  @Test
  void usesTheSpiOnlyThroughItsExtensionPoint() {
    spiOnlyThroughItsExtensionPoint.check(CLUSTER);
  }

  @Test
  void noStaticFieldIsReassignable() {
    fields()
        .that()
        .areStatic()
        .should()
        .beFinal()
        .as("every static field of the cluster module is final")
        .because("two cluster nodes in one JVM share no mutable state")
        .check(CLUSTER);
  }
}
