package dev.podium.query.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.xml.sax.InputSource;

class AtomFeedTest {

    private static final String HOSTILE = "<script>alert(1)</script>&amp;\u0000\u0007]]>";

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    @Test
    void agentStringsAreTextAndCharactersXmlCannotCarryAreDropped() throws Exception {
        Change c = new Change(Change.REGRESSION, HOSTILE, "k1", HOSTILE, HOSTILE, HOSTILE, HOSTILE, 100, 90, 0.9, 12, 20, new UUID(0, 1),
                Instant.parse("2026-11-02T03:04:05Z"), HOSTILE, "2.5.1", "/history?key=k1&metric=%3Cscript%3E");
        String xml = AtomFeed.of(new RegressionsView("regressions", null, List.of(), 100, "m", 1, 30, List.of(c)), "http://podium.example/");
        Document doc = parse(xml);

        assertThat(doc.getDocumentElement().getNamespaceURI()).isEqualTo("http://www.w3.org/2005/Atom");
        assertThat(doc.getElementsByTagNameNS("*", "script").getLength()).isZero();
        assertThat(doc.getElementsByTagNameNS("*", "entry").getLength()).isEqualTo(1);
        String title = doc.getElementsByTagNameNS("*", "entry").item(0).getFirstChild().getTextContent();
        assertThat(title).contains("<script>alert(1)</script>&amp;]]>").doesNotContain("\u0000").doesNotContain("\u0007");
        assertThat(xml).doesNotContain("<script>");
        assertThat(doc.getElementsByTagNameNS("*", "updated").item(0).getTextContent()).isEqualTo("2026-11-02T03:04:05Z");
    }

    @Test
    void anEmptyFeedIsValidAtomWithAFixedUpdatedTime() throws Exception {
        String xml = AtomFeed.of(new RegressionsView("all", "bench", List.of(), 100, "m", 0, 0, List.of()), "http://podium.example");
        Document doc = parse(xml);

        assertThat(doc.getElementsByTagNameNS("*", "entry").getLength()).isZero();
        assertThat(doc.getElementsByTagNameNS("*", "updated").item(0).getTextContent()).isEqualTo("2020-01-01T00:00:00Z");
        assertThat(xml).contains("href=\"http://podium.example/regressions.atom?kind=all&amp;benchmark=bench\"");
    }
}
