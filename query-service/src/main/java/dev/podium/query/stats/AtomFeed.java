package dev.podium.query.stats;

import java.io.StringWriter;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/** The regressions page as an Atom 1.0 feed (RFC 4287), written with StAX so every agent string is escaped. */
public final class AtomFeed {

    public static final String MEDIA_TYPE = "application/atom+xml";
    private static final String NS = "http://www.w3.org/2005/Atom";
    private static final Instant EPOCH = Instant.parse("2020-01-01T00:00:00Z");

    private AtomFeed() {
    }

    public static String of(RegressionsView view, String baseUri) {
        String base = baseUri.endsWith("/") ? baseUri.substring(0, baseUri.length() - 1) : baseUri;
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter x = XMLOutputFactory.newInstance().createXMLStreamWriter(out);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeStartElement("feed");
            x.writeDefaultNamespace(NS);
            text(x, "title", "Podium " + view.kind() + (view.benchmark() == null ? "" : ": " + view.benchmark()));
            text(x, "id", "tag:podium.dev,2026:" + view.kind() + (view.benchmark() == null ? "" : ":" + view.benchmark()));
            Instant updated = view.changes().stream().map(Change::at).max(Instant::compareTo).orElse(EPOCH);
            text(x, "updated", DateTimeFormatter.ISO_INSTANT.format(updated));
            link(x, "self", base + view.atomLink());
            link(x, "alternate", base + view.atomLink().replaceFirst("^/regressions\\.atom", "/regressions"));
            x.writeStartElement("author");
            text(x, "name", "Podium");
            x.writeEndElement();
            for (Change c : view.changes()) {
                x.writeStartElement("entry");
                text(x, "title", String.format(Locale.ROOT, "%s %s on %s: %s %s (%.4g → %.4g %s)", c.kind(), c.percent(), c.deviceLabel(),
                        c.benchmark(), c.metric(), c.before(), c.after(), c.unit() == null ? "" : c.unit()));
                text(x, "id", "tag:podium.dev,2026:change:" + c.keyId() + ":" + c.metric() + ":" + c.deviceId() + ":" + c.runId());
                text(x, "updated", DateTimeFormatter.ISO_INSTANT.format(c.at()));
                link(x, "alternate", base + c.historyLink());
                x.writeStartElement("category");
                x.writeAttribute("term", c.kind());
                x.writeEndElement();
                text(x, "summary", String.format(Locale.ROOT, "%s of %s under key %s on %s: level %.4g before, %.4g from run %s (%s σ); "
                        + "framework %s.", c.kind(), c.metric(), c.keyId(), c.deviceLabel(), c.before(), c.after(), c.runId(),
                        String.format(Locale.ROOT, "%.1f", c.sigmas()), c.versions()));
                x.writeEndElement();
            }
            x.writeEndElement();
            x.writeEndDocument();
            x.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("writing the Atom feed failed", e);
        }
        return out.toString();
    }

    private static void text(XMLStreamWriter x, String name, String value) throws XMLStreamException {
        x.writeStartElement(name);
        x.writeCharacters(clean(value));
        x.writeEndElement();
    }

    private static void link(XMLStreamWriter x, String rel, String href) throws XMLStreamException {
        x.writeStartElement("link");
        x.writeAttribute("rel", rel);
        x.writeAttribute("href", clean(href));
        x.writeEndElement();
    }

    /** Characters XML 1.0 cannot carry at all are dropped. */
    private static String clean(String s) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().filter(c -> c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
                || (c >= 0x10000 && c <= 0x10FFFF)).forEach(b::appendCodePoint);
        return b.toString();
    }
}
