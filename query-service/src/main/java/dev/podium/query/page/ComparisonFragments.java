package dev.podium.query.page;

import dev.podium.query.data.Catalog;
import dev.podium.query.view.ComparisonView;
import io.quarkus.qute.RawString;
import io.quarkus.qute.TemplateInstance;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Supplier;

/**
 * The parts of a comparison page that follow from its frame alone (benchmark, metric, source, parameter and group) while
 * every device is shown: the filters form (a baseline option and a checkbox per device) and the scaling curves, fifty
 * devices each. They are rendered from their fragments of {@code comparison.html} once and kept in the {@link Catalog},
 * dropped with the rows they show; a page that picks its own devices renders them itself. The one thing of the form that
 * changes with every request, the baseline, is marked afterwards.
 */
@ApplicationScoped
public class ComparisonFragments {

    static final String BASELINE_SELECT = "<select name=\"baseline\" id=\"baseline\">";

    private final Catalog catalog;

    public ComparisonFragments(Catalog catalog) {
        this.catalog = catalog;
    }

    RawString filters(ComparisonView view) {
        String form = frameLevel("filters", view, () -> Pages.Templates.comparison$filters(view)).getValue();
        return new RawString(view.baseline() == null ? form : withSelected(form, view.baseline()));
    }

    RawString curves(ComparisonView view) {
        return frameLevel("curves", view, () -> Pages.Templates.comparison$curves(view));
    }

    /** The form with the baseline select's option for {@code baseline} selected. */
    static String withSelected(String form, String baseline) {
        int select = form.indexOf(BASELINE_SELECT);
        String option = Html.escaped(new StringBuilder("<option value=\""), baseline).append('"').toString();
        int at = select < 0 ? -1 : form.indexOf(option, select);
        int end = select < 0 ? -1 : form.indexOf("</select>", select);
        if (at < 0 || at > end) {
            return form;
        }
        int insert = at + option.length();
        return form.substring(0, insert) + " selected" + form.substring(insert);
    }

    private RawString frameLevel(String part, ComparisonView view, Supplier<TemplateInstance> fragment) {
        if (view.query().devices() != null) {
            return new RawString(fragment.get().render());
        }
        var q = view.query();
        return catalog.cached("comparison html " + part + "\n" + q.benchmark() + "\n" + q.metric() + "\n" + q.source() + "\n"
                + q.param() + "\n" + q.group(), () -> new RawString(fragment.get().render()));
    }
}
