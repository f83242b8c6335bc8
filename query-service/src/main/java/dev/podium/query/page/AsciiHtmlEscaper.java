package dev.podium.query.page;

import io.quarkus.qute.EngineBuilder;
import io.quarkus.qute.Expression;
import io.quarkus.qute.RawString;
import io.quarkus.qute.ResultMapper;
import io.quarkus.qute.TemplateNode.Origin;
import io.quarkus.qute.Variant;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

/**
 * Escapes the expressions of HTML templates as Qute's own escaper does, and writes every character outside ASCII as a
 * character reference ({@link Html}), so a page whose static text is ASCII stays ASCII whatever its data holds. It
 * replaces Qute's escaper for the same templates (a higher priority: the first mapper that applies is the one used);
 * {@link RawString}s, fragments already escaped, pass unchanged as before.
 */
@Singleton
public class AsciiHtmlEscaper implements ResultMapper {

    /** Above Qute's escaper, which has the default priority. */
    private static final int PRIORITY = DEFAULT_PRIORITY + 10;

    void register(@Observes EngineBuilder engine) {
        engine.addResultMapper(this);
    }

    @Override
    public int getPriority() {
        return PRIORITY;
    }

    @Override
    public boolean appliesTo(Origin origin, Object result) {
        if (result instanceof RawString) {
            return false;
        }
        return origin.getVariant().map(v -> Variant.TEXT_HTML.equals(v.getContentType()) || Variant.TEXT_XML.equals(v.getContentType()))
                .orElse(false);
    }

    @Override
    public String map(Object result, Expression expression) {
        return Html.escaped(result.toString());
    }
}
