package dev.openaccel.runtime.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * The BOM ({@code bom/pom.xml}, which has no parent) imports Pekko's BOM of the release the build
 * uses, so an application that imports it gets the Pekko modules OpenAccel runs on. Runs from the
 * runtime module and reads the poms beside it.
 */
class BomTest {
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent(); // surefire: runtime/

  @Test
  void bomImportsPekkosBomOfTheBuildsRelease() throws Exception {
    Document parent = read(ROOT.resolve("pom.xml"));
    Document bom = read(ROOT.resolve("bom/pom.xml"));
    XPath xpath = XPathFactory.newInstance().newXPath();
    String property = "/project/properties/";
    assertEquals(
        xpath.evaluate(property + "pekko.version", parent),
        xpath.evaluate(property + "pekko.version", bom),
        "pekko.version of bom/pom.xml and of the parent pom.xml");
    String pekkoBom =
        "/project/dependencyManagement/dependencies/dependency[groupId='org.apache.pekko'"
            + " and starts-with(artifactId, 'pekko-bom_')]";
    assertEquals(
        "pekko-bom_" + xpath.evaluate(property + "scala.binary.version", parent),
        xpath.evaluate(pekkoBom + "/artifactId", bom));
    assertEquals("${pekko.version}", xpath.evaluate(pekkoBom + "/version", bom));
    assertEquals("pom", xpath.evaluate(pekkoBom + "/type", bom));
    assertEquals("import", xpath.evaluate(pekkoBom + "/scope", bom));
  }

  private static Document read(Path pom) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(false); // the poms' default namespace would need a prefix in XPath
    return factory.newDocumentBuilder().parse(pom.toFile());
  }
}
