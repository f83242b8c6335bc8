package dev.podium.query.page;

import dev.podium.query.data.Catalog;
import dev.podium.query.view.ComparisonView;
import io.quarkus.qute.RawString;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The parts of a comparison page that grow with its devices, written by {@link ComparisonHtml}: the filters form, per
 * request (its baseline and checked devices change with every one), and the scaling curves, fifty devices each. While
 * every device is shown the curves follow from the frame alone (benchmark, metric, source, parameter and group): they
 * are written once and kept in the {@link Catalog}, dropped with the rows they show; a page that picks its own devices
 * writes its few curves itself.
 */
@ApplicationScoped
public class ComparisonFragments {

    private final Catalog catalog;

    public ComparisonFragments(Catalog catalog) {
        this.catalog = catalog;
    }

    RawString filters(ComparisonView view) {
        return new RawString(ComparisonHtml.filters(view));
    }

    RawString curves(ComparisonView view) {
        if (view.query().devices() != null) {
            return new RawString(ComparisonHtml.curves(view));
        }
        var q = view.query();
        return catalog.cached("comparison html curves\n" + q.benchmark() + "\n" + q.metric() + "\n" + q.source() + "\n" + q.param()
                + "\n" + q.group(), () -> new RawString(ComparisonHtml.curves(view)));
    }
}
