package dev.openaccel.conformance;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * A backend's place in the layers of {@code docs/ARCHITECTURE.md}, as a rule a backend's own test
 * checks: of OpenAccel, it uses the public API and the SPI only, never the runtime's {@code
 * internal} packages (the facade wiring and the engine), and it keeps no reassignable static field.
 * Third-party libraries are not restricted. A failure names the rule and every offender.
 */
public final class BackendLayers {
  private BackendLayers() {}

  /**
   * Checks the production classes of {@code backendPackage} (e.g. {@code "dev.openaccel.openreg"}),
   * naming the backend {@code backendName} in the rule.
   *
   * @throws AssertionError listing each dependency on a runtime package outside the API and SPI, or
   *     each static field that is not final
   */
  public static void checkUsesOnlyPublicApiAndSpi(String backendPackage, String backendName) {
    noClasses()
        .that()
        .resideInAPackage(backendPackage + "..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("dev.openaccel..")
                .and(
                    not(
                        resideInAnyPackage(
                            backendPackage + "..",
                            "dev.openaccel.runtime",
                            "dev.openaccel.runtime.actor..",
                            "dev.openaccel.runtime.trace..",
                            "dev.openaccel.runtime.spi.."))))
        .as("the " + backendName + " backend uses only OpenAccel's public API and SPI")
        .because("a backend plugs in through the SPI and never reaches the runtime's internals")
        .check(classes(backendPackage));
    checkStaticFieldsAreFinal(backendPackage, "the " + backendName + " backend");
  }

  /**
   * Checks the production classes of {@code modulePackage}, a module that uses an accelerator as
   * its users do (e.g. the metrics binder, the testkit), named {@code moduleName} in the rule: they
   * use the public API only, neither the SPI nor the runtime's {@code internal} packages, and keep
   * no reassignable static field.
   *
   * @throws AssertionError listing each dependency on the SPI or an internal package, or each
   *     static field that is not final
   */
  public static void checkUsesOnlyPublicApi(String modulePackage, String moduleName) {
    checkUsesOnlyPublicApi(modulePackage, moduleName, new Class<?>[0]);
  }

  /**
   * As {@link #checkUsesOnlyPublicApi(String, String)}, but the module may also use the SPI's
   * extension points {@code spiTypes} (and no other SPI type): for a module such as the testkit,
   * which installs a {@code DeviceControl}.
   *
   * @throws AssertionError listing each dependency on another SPI type or an internal package, or
   *     each static field that is not final
   */
  public static void checkUsesOnlyPublicApi(
      String modulePackage, String moduleName, Class<?>... spiTypes) {
    DescribedPredicate<JavaClass> allowed = DescribedPredicate.alwaysFalse();
    StringBuilder names = new StringBuilder();
    for (Class<?> type : spiTypes) {
      allowed = allowed.or(JavaClass.Predicates.equivalentTo(type));
      names.append(names.length() == 0 ? " but " : ", ").append(type.getSimpleName());
    }
    noClasses()
        .that()
        .resideInAPackage(modulePackage + "..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("dev.openaccel.runtime.internal..")
                .or(resideInAPackage("dev.openaccel.runtime.spi..").and(not(allowed))))
        .as(moduleName + " imports neither dev.openaccel.runtime.internal nor .spi" + names)
        .because("it sees an accelerator as any user does")
        .check(classes(modulePackage));
    checkStaticFieldsAreFinal(modulePackage, moduleName);
  }

  private static void checkStaticFieldsAreFinal(String modulePackage, String moduleName) {
    fields()
        .that()
        .areStatic()
        .should()
        .beFinal()
        .as("every static field of " + moduleName + " is final")
        .because("two accelerators in one JVM share no mutable state")
        .check(classes(modulePackage));
  }

  private static JavaClasses classes(String backendPackage) {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages(backendPackage);
  }
}
