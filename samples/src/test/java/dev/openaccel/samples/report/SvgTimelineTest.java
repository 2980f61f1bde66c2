package dev.openaccel.samples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The SVG picture of a known timeline: well-formed, one lane per stream, kernels, axis. */
class SvgTimelineTest {
  private static final Track LANE = new Track(0, "openreg:0", 65, "compute <0> & more");

  private static Document parse(String svg) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory
        .newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  private static List<String> texts(Document svg, String tag) {
    NodeList nodes = svg.getElementsByTagName(tag);
    List<String> list = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      list.add(nodes.item(i).getTextContent());
    }
    return list;
  }

  @Test
  void everyKernelWiderThanAPixelIsItsOwnRectangleWithATooltip() throws Exception {
    List<Span> spans = new ArrayList<>();
    for (int i = 0; i < 5; i++) { // 5 kernels of 1 ms back to back, 10 ms in all
      spans.add(new Span(0, 65, "gemm " + i, i * 2_000_000L, i * 2_000_000L + 1_000_000L, false));
    }
    Document svg = parse(SvgTimeline.svg(new Timeline(List.of(LANE), spans), "title & <more>"));
    assertEquals("svg", svg.getDocumentElement().getLocalName());
    List<String> titles = texts(svg, "title");
    assertEquals(5, titles.size());
    assertEquals("gemm 0: 1.000 ms", titles.get(0));
    List<String> texts = texts(svg, "text");
    assertTrue(texts.contains("title & <more>"), texts.toString());
    assertTrue(texts.contains("compute <0> & more (stream 65)"), texts.toString());
    assertTrue(texts.contains("openreg:0"), texts.toString());
    assertTrue(texts.containsAll(List.of("0", "2", "4", "6", "8")), "axis ticks: " + texts);
    assertTrue(texts.contains("time since the first kernel (ms)"), texts.toString());
  }

  @Test
  void aWaitIsAHatchedRectangleWithAnArrowFromTheKernelThatReleasedIt() throws Exception {
    Track copy = new Track(0, "openreg:0", 64, 1, "copy-in");
    Timeline timeline =
        new Timeline(
            List.of(copy, LANE),
            new TraceLog(
                List.of(
                    new Span(0, 65, "gemm 0", 0, 1_000_000, false),
                    new Span(0, 64, "copyToDevice", 0, 6_000_000, false),
                    new Span(0, 65, "gemm 1", 6_100_000, 10_000_000, false)),
                List.of(new Dependency(3, 1, 0, 64, 0, 65)),
                List.of()));
    Document svg = parse(SvgTimeline.svg(timeline, "waits"));
    List<Element> waits = byClass(svg, "rect", "wait");
    assertEquals(1, waits.size());
    assertEquals(
        "wait 5.100 ms, released by copy-in (stream 64): copyToDevice",
        waits.get(0).getTextContent());
    List<Element> arrows = byClass(svg, "line", "dependency");
    assertEquals(1, arrows.size());
    Element arrow = arrows.get(0);
    assertEquals("url(#arrow)", arrow.getAttribute("marker-end"));
    double waitEnd =
        Double.parseDouble(waits.get(0).getAttribute("x"))
            + Double.parseDouble(waits.get(0).getAttribute("width"));
    assertEquals(waitEnd, Double.parseDouble(arrow.getAttribute("x2")), 0.02);
    assertTrue(
        Double.parseDouble(arrow.getAttribute("x1")) < waitEnd, "arrow runs forward in time");
    assertTrue(
        Double.parseDouble(arrow.getAttribute("y1")) < Double.parseDouble(arrow.getAttribute("y2")),
        "from the copy-in lane down to the compute lane");
  }

  @Test
  void aReplayIsAnOutlineBehindItsKernelsOnItsStreamsLane() throws Exception {
    Timeline timeline =
        new Timeline(List.of(ReplaysTest.MAIN, ReplaysTest.SIDE), ReplaysTest.twoReplays());
    String text = SvgTimeline.svg(timeline, "replays");
    Document svg = parse(text);
    List<Element> outlines = byClass(svg, "rect", "replay");
    assertEquals(
        List.of(
            "graph 3 replay 1: 3 kernels, 0.003 ms",
            "graph 3 replay 2 (failed): 3 kernels, 0.002 ms"),
        outlines.stream().map(Element::getTextContent).toList());
    assertEquals("#333", outlines.get(0).getAttribute("stroke"));
    assertEquals("#d00", outlines.get(1).getAttribute("stroke"), "failed is red");
    assertEquals(
        List.of("graph 3 replay 1", "graph 3 replay 2"),
        byClass(svg, "text", "replay-label").stream().map(Element::getTextContent).toList(),
        "labelled: each is hundreds of pixels wide");
    assertTrue(
        text.indexOf("class=\"replay\"") < text.indexOf("<title>double: "),
        "drawn behind its kernels");
    // The lane of stream 65 comes first; its lane rectangle's y is the outline's y + 2.5.
    double y = Double.parseDouble(outlines.get(0).getAttribute("y"));
    assertEquals(y, Double.parseDouble(outlines.get(1).getAttribute("y")), 0.0, "one lane");
  }

  @Test
  void aCollectiveIsABoxOnItsStreamsLaneWithABarPerPieceInside() throws Exception {
    Timeline timeline =
        new Timeline(List.of(CollectivesTest.MAIN), CollectivesTest.twoAllReducesLog());
    String text = SvgTimeline.svg(timeline, "collectives");
    Document svg = parse(text);
    List<Element> boxes = byClass(svg, "rect", "collective");
    assertEquals(
        List.of(
            "allReduce #3 'grads': 3072 bytes, 0.008 ms, pieces sent: 4",
            "allReduce #4 'grads' (failed): 3072 bytes, 0.007 ms, pieces sent: 1"),
        boxes.stream().map(Element::getTextContent).toList());
    assertEquals("#d00", boxes.get(1).getAttribute("stroke"), "failed is red, as kernels are");
    assertTrue(!boxes.get(0).getAttribute("stroke").equals("#d00"));
    List<Element> pieces = byClass(svg, "rect", "collective-step");
    assertEquals(
        List.of(
            "allReduce #3 'grads' step 0 piece 0: 1024 bytes, 0.001 ms",
            "allReduce #3 'grads' step 1 piece 0: 1024 bytes, 0.001 ms",
            "allReduce #3 'grads' step 2 piece 0: 1024 bytes, 0.001 ms",
            "allReduce #3 'grads' step 3 piece 0: 1024 bytes, 0.001 ms",
            "allReduce #4 'grads' step 0 piece 0: 1024 bytes, 0.000 ms"),
        pieces.stream().map(Element::getTextContent).toList());
    Element box = boxes.get(0);
    double x0 = Double.parseDouble(box.getAttribute("x"));
    double x1 = x0 + Double.parseDouble(box.getAttribute("width"));
    double y0 = Double.parseDouble(box.getAttribute("y"));
    double y1 = y0 + Double.parseDouble(box.getAttribute("height"));
    for (Element piece : pieces.subList(0, 4)) {
      double from = Double.parseDouble(piece.getAttribute("x"));
      double top = Double.parseDouble(piece.getAttribute("y"));
      assertTrue(from >= x0 && from + Double.parseDouble(piece.getAttribute("width")) <= x1);
      assertTrue(top >= y0 && top + Double.parseDouble(piece.getAttribute("height")) <= y1);
    }
    assertEquals(
        List.of("allReduce #3 'grads'", "allReduce #4 'grads'"),
        byClass(svg, "text", "collective-label").stream().map(Element::getTextContent).toList(),
        "labelled: each is hundreds of pixels wide");
    assertTrue(
        text.indexOf("class=\"collective\"") < text.indexOf("<title>copyToDevice: "),
        "drawn behind the kernels of its lane");
    assertTrue(
        texts(svg, "text").contains("collective, with the pieces it sent (red: failed)"),
        "in the legend");
  }

  private static List<Element> byClass(Document svg, String tag, String cssClass) {
    NodeList nodes = svg.getElementsByTagName(tag);
    List<Element> list = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      Element element = (Element) nodes.item(i);
      if (element.getAttribute("class").equals(cssClass)) {
        list.add(element);
      }
    }
    return list;
  }

  @Test
  void subPixelKernelsOfOneKindMergeIntoOneRectangle() throws Exception {
    List<Span> spans = new ArrayList<>();
    spans.add(new Span(0, 65, "gemm long", 0, 100_000_000L, false)); // 100 ms sets the scale
    for (int i = 0; i < 100; i++) { // then 100 kernels of 1 us, 1 us apart
      long start = 100_000_000L + i * 2_000L;
      spans.add(new Span(0, 65, "copyToDevice", start, start + 1_000L, false));
    }
    List<String> titles =
        texts(parse(SvgTimeline.svg(new Timeline(List.of(LANE), spans), "t")), "title");
    assertEquals(List.of("gemm long: 100.000 ms", "100 x copyToDevice: 0.100 ms"), titles);
  }

  @Test
  void failedKernelsAreNeverMerged() throws Exception {
    List<Span> spans = new ArrayList<>();
    spans.add(new Span(0, 65, "gemm long", 0, 100_000_000L, false));
    spans.add(new Span(0, 65, "copy", 100_000_000L, 100_000_100L, false));
    spans.add(new Span(0, 65, "copy", 100_000_200L, 100_000_300L, true));
    List<String> titles =
        texts(parse(SvgTimeline.svg(new Timeline(List.of(LANE), spans), "t")), "title");
    assertEquals(3, titles.size(), titles.toString());
  }

  @Test
  void anEmptyTimelineIsStillAPicture() throws Exception {
    Document svg = parse(SvgTimeline.svg(new Timeline(List.of(LANE), List.of()), "nothing ran"));
    assertEquals(0, texts(svg, "title").size());
    assertTrue(texts(svg, "text").contains("nothing ran"));
  }

  @Test
  void axisStepsAreOneTwoOrFiveTimesAPowerOfTen() {
    assertEquals(1.0, SvgTimeline.niceStep(0.9), 1e-12);
    assertEquals(2.0, SvgTimeline.niceStep(1.5), 1e-12);
    assertEquals(5.0, SvgTimeline.niceStep(3), 1e-12);
    assertEquals(10.0, SvgTimeline.niceStep(7), 1e-12);
    assertEquals(0.05, SvgTimeline.niceStep(0.03), 1e-12);
    assertEquals(20.0, SvgTimeline.niceStep(20), 1e-12);
  }
}
